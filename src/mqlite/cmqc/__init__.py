"""IBM MQ constants: IBM's names and numeric values, in the style of pymqi's ``CMQC`` module.

Usage::

    import mqlite.cmqc as CMQC
    assert CMQC.MQRC_NOT_AUTHORIZED == 2035

Values follow IBM's ``cmqc.h`` (and, for the few admin values at the end, ``cmqcfc.h``) of
IBM MQ 9.2. Options and flags are written in hexadecimal like IBM does; everything else in decimal.
Format names and structure identifiers are ``str`` (blank padded, as in the header); identifiers
that are binary (message, correlation, group identifiers, accounting token, ...) are ``bytes`` of
zeros. Platform-dependent structure lengths are left out on purpose: mqlite has no C structures.

The constants are kept in modules by subject; this package holds them all, in IBM's header order.
"""

# In header order, not sorted: code that reads vars(cmqc) (reason names by value) sees IBM's order.
# ruff: noqa: I001
from mqlite.cmqc.reason_codes import *  # noqa: F403
from mqlite.cmqc.command_reasons import *  # noqa: F403
from mqlite.cmqc.lengths import *  # noqa: F403
from mqlite.cmqc.descriptors import *  # noqa: F403
from mqlite.cmqc.options import *  # noqa: F403
from mqlite.cmqc.attributes import *  # noqa: F403
from mqlite.cmqc.exits_channels import *  # noqa: F403
from mqlite.cmqc.security import *  # noqa: F403
from mqlite.cmqc.events import *  # noqa: F403
from mqlite.cmqc.commands import *  # noqa: F403
from mqlite.cmqc.pubsub_commands import *  # noqa: F403
from mqlite.cmqc.pcf_parameters import *  # noqa: F403
from mqlite.cmqc.pcf_monitoring import *  # noqa: F403
