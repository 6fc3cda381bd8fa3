"""The imperative shell around the pure core: config, the ledger's one write path, the shell and run loop, backends, device assembly."""
