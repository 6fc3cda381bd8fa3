"""Property-based tests: random streams of keys, cards and time against the core never break the bank.

A hypothesis state machine presses any of the 16 keys (short or held), puts
known, unknown and duplicate cards on the readers, takes them away, and lets
time pass. After every event: no exception escaped, the screen renders,
money is conserved (what the players hold is what the bank issued less what
it took back), and every balance equals the fold of the journal.
"""

from runtime.shell import Shell
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from banker.unit.events import KEYS, CardPlaced, CardRemoved, KeyDown, KeyUp, Tick
from banker.journal.records import BANK, net_flows
from runtime.ledger import SqliteLedger
from render import render_image

UIDS = ["A1", "B2", "C3", "D4", "EE00", "FF11"]  # four players, two unknown cards
EVENTS = {"count": 0}


class UnitAtTheTable(RuleBasedStateMachine):
    @initialize(negative=st.booleans())
    def start(self, negative):
        from banker.journal.records import GameSettings

        self.ledger = SqliteLedger(":memory:")
        if negative:
            self.ledger.new_game(GameSettings(allow_negative=True))
        for name, uid in zip(("Alice", "Bob", "Cleo", "Dan"), UIDS):
            self.ledger.enrol(name, uid)
        self.shell = Shell(self.ledger, sleep_after=60)
        self.t = 0.0
        self.down: set[str] = set()

    def send(self, event):
        EVENTS["count"] += 1
        self.shell.handle(event)

    @rule(key=st.sampled_from(KEYS), dt=st.floats(0.01, 0.5))
    def press(self, key, dt):
        self.t += dt
        self.send(KeyDown(key, self.t))
        self.t += 0.05
        self.send(KeyUp(key, self.t))

    @rule(digits=st.text("0123456789.", min_size=1, max_size=4), suffix=st.sampled_from("MK"))
    def type_amount(self, digits, suffix):
        for key in digits + suffix:
            self.press(key, 0.05)

    @rule(key=st.sampled_from(["C", "C", "GO", "FN", "5"]), seconds=st.floats(0.1, 4))
    def hold(self, key, seconds):
        self.t += 0.05
        self.send(KeyDown(key, self.t))
        steps = int(seconds / 0.5) + 1
        for _ in range(steps):
            self.t += seconds / steps
            self.send(Tick(self.t))
        self.send(KeyUp(key, self.t))

    @rule(reader=st.sampled_from(["left", "right"]), uid=st.sampled_from(UIDS))
    def place(self, reader, uid):
        self.t += 0.05
        self.send(CardPlaced(reader, uid, self.t))

    @rule(reader=st.sampled_from(["left", "right"]))
    def take_away(self, reader):
        self.t += 0.05
        self.send(CardRemoved(reader, self.t))

    @rule(seconds=st.sampled_from([0.1, 1.0, 2.5, 61.0]))
    def wait(self, seconds):
        self.t += seconds
        self.send(Tick(self.t))

    @invariant()
    def screen_renders(self):
        if hasattr(self, "unit"):
            image = render_image(self.shell.screen)
            assert image.size == (128, 64)

    @invariant()
    def money_is_conserved_and_balances_are_the_journal(self):
        if not hasattr(self, "ledger"):
            return
        journal = self.ledger.transactions()
        issued = sum(p.amount for tx in journal for p in tx.postings if p.payer is BANK)
        returned = sum(p.amount for tx in journal for p in tx.postings if p.payee is BANK)
        game = self.ledger.game()
        balances = {c.id: game.balance(c.id) for c in game.cards}
        assert sum(balances.values()) == issued - returned
        folded = net_flows(p for tx in journal for p in tx.postings)
        assert all(balances[cid] == folded.get(cid, 0) for cid in balances)
        if not self.ledger.game().settings.allow_negative:
            assert min(balances.values()) >= 0

    def teardown(self):
        if hasattr(self, "ledger"):
            self.ledger.check()
            self.ledger.close()


def test_random_events_never_break_the_bank():
    """At least 100,000 random events, every invariant checked after each."""
    EVENTS["count"] = 0
    run_state_machine_as_test(UnitAtTheTable, settings=settings(
        max_examples=130, stateful_step_count=300, deadline=None, derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    ))
    print(f"\nproperty tests: {EVENTS['count']} events")
    assert EVENTS["count"] >= 100_000, EVENTS["count"]
