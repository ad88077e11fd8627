"""What a player does, one module each: lobby, draft, turn, looking, admin. Each holds a
cog with its `/mk` subcommands and the buttons those commands draw."""
