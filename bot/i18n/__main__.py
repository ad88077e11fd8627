"""The catalogue's tool (Babel underneath):

    .venv/bin/python -m bot.i18n extract   # messages.pot from the code and the commands,
                                           # merged into each .po (new entries empty)
    .venv/bin/python -m bot.i18n compile   # every .po to its .mo (the bot also does
                                           # this on first use)
    .venv/bin/python -m bot.i18n check     # exit 1 if a language lacks a translation,
                                           # or says every count of a counted message
                                           # with one word (`bot.i18n.plurals`)

Translate by filling the empty `msgstr` of `bot/locale/<language>/LC_MESSAGES/messages.po`
(the glossaries in `docs/` give the rulebooks' words).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.i18n.catalogue import TEMPLATE, TRANSLATED, compile_po, mo_path, po_path
from bot.i18n.extract import extract, read_catalog, update_languages, write_template
from bot.i18n.plurals import uninflected


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n", description=__doc__)
    parser.add_argument("command", choices=("extract", "compile", "check"))
    args = parser.parse_args(argv)
    if args.command == "compile":
        for language in TRANSLATED:
            mo_path(language).write_bytes(compile_po(po_path(language), language))
            print(f"compiled {mo_path(language)}")
        return 0
    template = asyncio.run(extract())
    if args.command == "extract" and write_template(template):
        print(f"wrote {TEMPLATE}")
    # `check` compares the .po files with the code as it is now, and writes nothing
    missing = update_languages(template, write=args.command == "extract")
    for language, messages in missing.items():
        for message in messages:
            print(f"{language}: untranslated: {message!r}")
    # a counted message must say its counts in more than one way where the language can
    alike = {
        language: uninflected(read_catalog(po_path(language), language)) for language in TRANSLATED
    }
    for language, names in alike.items():
        for name in names:
            print(f"{language}: plural forms all alike: {name}")
    faults = any(missing.values()) or any(alike.values())
    return 1 if args.command == "check" and faults else 0


if __name__ == "__main__":
    sys.exit(main())
