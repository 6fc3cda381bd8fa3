"""``banker --help`` as click prints it at full width (banker_cli/entry.py); written by
``python -m banker_cli.entry``, checked by tests/cli/test_fast_help.py."""

HELP = (
    'Usage: banker [OPTIONS] COMMAND [ARGS]...\n'
    '\n'
    '  The Monopoly Electronic Banking unit: ledger, keypad scripts, simulator and\n'
    '  device.\n'
    '\n'
    'Options:\n'
    '  --version   Show the version and exit.\n'
    '  -h, --help  Show this message and exit.\n'
    '\n'
    'Commands:\n'
    '  script  Run a keypad script FILE ("-" for stdin) against the unit.\n'
    '  cards   List, enrol, rename and remove player cards.\n'
    '  game    List, start, show and restore games (old games are archived...\n'
    '  deeds   The title deeds of the board, and their RFID tags.\n'
    '  ledger  Show, export, verify and undo the journal of transactions.\n'
    "  pin     The banker's PIN, which protects enrolment, settings, restores...\n"
    "  key     The ledger's key: export it, import it on another machine, or...\n"
    '  sim     Open the banker unit in a window and play: click or type the...\n'
    '  run     Run the unit on its hardware until stopped (SIGTERM or Ctrl-C).\n'
    '  doctor  Check each configured device and say what was found; exit 1 if...\n'
    '  web     Serve the table page for the ledger: every phone and the TV...\n'
)
