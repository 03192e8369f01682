"""The revisor's pages (/r/): a device bound to one table, without an account."""
