"""The audit of a journal: its records checked against the rules, each problem naming its entry."""
