import sys

from mqlite.server.main import main

sys.exit(main())
