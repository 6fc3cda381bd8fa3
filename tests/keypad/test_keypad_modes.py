"""The keypad as modes: typed keys, the step as a table, the home screen as a flow, modes below flows."""

import ast
import typing
from pathlib import Path

from banker.unit import events, step
from banker.unit.events import KEYS, Key
from banker.unit.flows.home import HOME
from banker.fold.game import Game
from banker.unit.modes.base import END, KEEP, KEEP_ENTRY, STAY, Ctx
from banker.unit.panel import Panel
from banker.unit.views import refused

BANKER = Path(__file__).resolve().parents[2] / "banker"
UNIT = BANKER / "unit"
MODES = sorted((UNIT / "modes").glob("*.py"))
FLOWS = sorted((UNIT / "flows").glob("*.py"))


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function, as an absolute ``banker.`` name."""
    package = ".".join(("banker",) + path.relative_to(BANKER).parent.parts)
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def test_the_modes_never_import_the_flows():
    assert MODES and FLOWS
    for path in MODES:
        flows = {name for name in _imports(path) if name == "banker.unit.flows" or name.startswith("banker.unit.flows.")}
        assert not flows, f"{path.name} imports {sorted(flows)}"


def test_the_keypad_compares_keys_by_name_not_by_bare_strings():
    literal = {*KEYS}
    for path in [UNIT / "step.py", *MODES, *FLOWS]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare) and any(isinstance(n, ast.Name) and n.id == "key"
                                                     for n in [node.left, *node.comparators]):
                strings = [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and n.value in literal]
                assert not strings, f"{path.name}:{node.lineno} compares a key with {strings}"


def test_the_key_type_keeps_the_words_drivers_and_scripts_send():
    assert KEYS == ("1", "2", "3", "M", "4", "5", "6", "K", "7", "8", "9", "C", ".", "0", "GO", "FN")
    assert [Key(word) for word in KEYS] == list(Key)
    assert Key.POINT == "." and Key.GO == "GO" and f"{Key.FN}" == "FN"


def test_the_step_is_a_table_with_a_handler_for_every_event():
    assert set(step._HANDLERS) == set(typing.get_args(events.Event))


def test_refusals_are_named():
    ctx = Ctx(Panel(), Game())
    shown = refused("No")
    assert (ctx.refuse(shown).mode, ctx.refuse(shown).entry.empty) == (None, True)
    assert ctx.refuse(shown, then=END) == ctx.refuse(shown)
    assert (ctx.refuse(shown, then=STAY).mode, ctx.refuse(shown, then=STAY).entry.empty) == (KEEP, True)
    assert (ctx.refuse(shown, then=KEEP_ENTRY).mode, ctx.refuse(shown, then=KEEP_ENTRY).entry) == (None, KEEP)
    assert ctx.refuse(shown, then=HOME).mode is HOME
    assert {ctx.refuse(shown, then=t).tone for t in (END, STAY, KEEP_ENTRY)} == {"refusal"}


def test_a_reader_is_a_field_of_the_panel_by_a_typed_helper():
    panel = Panel().with_card("left", "A1").with_card("right", "B2")
    assert (panel.left, panel.right, panel.card_on("left"), panel.card_on("right")) == ("A1", "B2", "A1", "B2")
    assert panel.with_card("left", None).left is None


def test_the_home_screen_is_a_mode_like_the_others(table):
    table.insert("left", "Alice")
    table.type("15")
    panel, game = table.shell.panel, table.ledger.game()
    assert panel.mode is None  # at rest the home screen owns the keys
    assert HOME.screen(Ctx(panel, game)).lines == step.screen(panel, game).lines
    assert HOME.screen(Ctx(panel, game)).shows("Alice") and HOME.screen(Ctx(panel, game)).shows("15_")


def test_the_fold_refuses_a_payment_short_of_funds_and_names_the_payer(table):
    table.insert("right", "Bob")
    table.type("15.89M")
    assert "Bob short 890K" in table.shown
    assert table.ledger.game().balances_by_name()["Bob"] == 15_000_000
    assert table.tones()[-1] == "refusal"
