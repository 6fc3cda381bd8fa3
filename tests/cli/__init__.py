"""The banker command as a user meets it: messages, exit codes, escaping, configs, attacks."""
