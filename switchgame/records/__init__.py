"""A match's record: its replay from the event log, the record format and its text notation."""
