"""pymqi's own tests (see ../NOTICE). A package only so that their module names (test_pcf, test_tls,
test_rfh2) do not clash with mqlite's tests of the same names."""
