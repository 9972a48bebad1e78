import sys

from marketcurves.cli import main

sys.exit(main())
