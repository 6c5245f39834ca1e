import sys

from tritonlab.cli import main

sys.exit(main())
