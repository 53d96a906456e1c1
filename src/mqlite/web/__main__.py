"""``python -m mqlite.web``: the web server in the foreground (``mqlite strmqweb`` runs it detached)."""

import sys

from mqlite.web.server import main

sys.exit(main())
