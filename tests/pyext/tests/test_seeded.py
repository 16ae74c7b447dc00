import pytest

import seeded


@pytest.mark.parametrize("x", [-3, 0, 2, 5, 7, 100])
def test_clamp(x):
    assert seeded.clamp(x, 0, 5) == min(max(x, 0), 5)  # fails for x > 5


def test_clamp_all_inside():
    assert seeded.clamp_all([1, 2, 3], 0, 5) == [1, 2, 3]


def test_clamp_bad_range():
    with pytest.raises(ValueError):
        seeded.clamp(1, 5, 0)


def test_centered():
    assert seeded.centered([1.0, 2.0, 3.0]) == [-1.0, 0.0, 1.0]


def test_norm2():
    assert seeded.norm2([3.0, 4.0]) == 25.0
