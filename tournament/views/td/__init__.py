"""The tournament director's pages (staff login), one module per area."""
