"""The undo prompt and its result name who paid whom and how much, and say the entry was reversed."""


def test_the_prompt_names_the_bank_the_player_and_the_amount(table):
    table.insert("left", "Alice")
    table.type("2M")
    table.remove("left")
    table.keys("FN", "C")
    assert table.screen_lines()[:3] == ["Undo #3?", "Bank paid Alice", "2M"]


def test_the_result_says_reversed_not_a_new_act(table):
    table.insert("left", "Alice")
    table.insert("right", "Bob")
    table.type("1.5M")
    table.keys("FN", "C", "M")
    assert table.screen_lines()[:4] == ["#3 reversed:", "Bob paid Alice", "1.5M", "money given back"]
    assert table.ledger.game().balances_by_name() == {"Alice": 15_000_000, "Bob": 15_000_000}
