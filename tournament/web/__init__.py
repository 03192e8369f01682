"""Web plumbing: URL converters, the public address of every printed link, QR codes, and the
clear pages of database faults."""
