"""Power cuts: a process killed at every file-system call (strace), the ledger checked after each."""
