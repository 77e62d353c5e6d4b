"""str results through the C API (kjit_call and the prepared calls of the C dispatcher): strings made at run
time come back intact, in tuples too, call after call (issue 27: they came back as freed memory)."""
import str_funcs as sf


def test_run_time_strings_come_back_intact():
    for k in range(50):  # many calls: each result is its own copy, released with its value
        assert sf.greet("kjit", k) == f"hello kjit #{k}"
    assert sf.shout("kjit, text") == "KJIT, TEXT!"
    assert sf.first_chars("héllo") == "hé"
    assert sf.constant() == "a literal" and sf.constant() == "a literal"


def test_strings_inside_tuples():
    for _ in range(20):
        assert sf.parts("  a b c  ") == ("a b c", 9, "__a_b_c__")
