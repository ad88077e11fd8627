import sys

from cave_troll.cli import main

sys.exit(main())
