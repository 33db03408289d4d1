"""French: the cue rules and word lists of French rule texts (data files only)."""
