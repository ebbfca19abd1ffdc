"""Whist and bid cases from the Russian sources (../shared/sources/), each
with its citation, run with the default settings (auction model on, pass
valued) on a fixed seed and few layouts.

Sources: 000 = 000_241e5e8c408eeaaa.txt (LiveGames rules, Leningrad
convention), 002 = 002_da9a793f628a735f.txt (the Sochi rules and scoring of
a four-player pool), 003 = 003_5a1eecba97489a9f.txt (the LiveGames rules).
Where a case rests on players' lore rather than a printed hand (the bare
king against a 9, the half-whist of a weak second defender), the quote given
is the rule it applies.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from solver.advice import AdviceError, RunOptions, advise_bid, advise_whist, bid_request, whist_request
from solver.scoring import CONVENTIONS, ContractOutcome, obligation, score_deal

SOCHI = CONVENTIONS["sochi"]
RUN = dict(seed=1, workers=2)


def whist(hand: str, talon: str, contract: str, declarer: int, seat: int, other=None, layouts: int = 60, **extra):
    request = whist_request(hand, talon, contract, declarer, seat, other_decision=other, **extra)
    return advise_whist(request, RunOptions(layouts=layouts, **RUN))


def bid(hand: str, seat: int = 0, layouts: int = 8, **extra):
    return advise_bid(bid_request(hand, seat, **extra), RunOptions(layouts=layouts, **RUN))


def records(players, declarer, level, decisions, tricks, dealer=None, returned_by=None):
    return score_deal(SOCHI, ContractOutcome(players, declarer, level, decisions, tricks, dealer,
                                             returned_by=returned_by)).records


# ---- whist or pass ------------------------------------------------------------

def test_bare_king_against_a_nine_is_a_pass_for_the_first_defender() -> None:
    # 002: "Если оба игрока сказали “вист”, они должны в сумме взять ... на восьмерной и
    # девятерной – одну взятку" - a whister must take a trick; a bare ♥K and nothing else
    # does not take one against a declarer who bid 9♠.
    advice = whist("87.T987.987.K", "..T.T", "9s", 1, 2)
    assert advice.recommended == "pass"
    assert advice.declarer_fails.mean < 0.05   # a 9 is bid on counted tricks (the model's sure_from_level)


def test_bare_king_against_a_nine_is_a_pass_for_the_second_defender_too() -> None:
    # 002: "Вистующий, не добравший положенного количества взяток ... пишет в гору за каждую
    # недобранную по стоимости игры. Скажем, вистовавший на девятерной и не взявший взятки
    # пишет восемь в гору."
    advice = whist("87.T987.987.K", "..T.T", "9s", 1, 0, "pass")
    assert advice.recommended == "pass" and advice.option("whist").value.mean < advice.option("pass").value.mean


def test_second_defender_after_a_pass_with_a_weak_hand_half_whists() -> None:
    # 002: "Если сидящий следующим за разыгрывающим сказал “пас”, то второй при слабой карте
    # может “уйти за полвиста”, то есть признать игру сыгранной и без розыгрыша записать за
    # половину от обязательного количества взяток (на шестерной – за две взятки ...)."
    advice = whist("JT98.JT.98.A9", "..J.K", "6c", 1, 0, "pass", layouts=100)
    assert advice.recommended == "half_whist"
    half = advice.option("half_whist")
    assert half.value.mean > advice.option("whist").value.mean and half.value.mean > advice.option("pass").value.mean


def test_the_same_hand_without_the_auction_model_would_whist() -> None:
    # The case the model is for: with the declarer's hand drawn as if he might have bid
    # anything he fails too often, and the weak second defender is told to whist.
    off = whist("JT98.JT.98.A9", "..J.K", "6c", 1, 0, "pass", layouts=100, auction=None)
    on = whist("JT98.JT.98.A9", "..J.K", "6c", 1, 0, "pass", layouts=100)
    assert off.recommended == "whist" and on.recommended == "half_whist"
    assert off.declarer_fails.mean > on.declarer_fails.mean


def test_strong_hand_whists_a_six() -> None:
    # 000: "все Вистующие суммарно должны взять, при шестерной игре не менее 4 взяток" -
    # five aces and kings outside trumps take them.
    advice = whist("A8.AK7.AK8.AK", "..7.7", "6s", 1, 2, layouts=30)
    assert advice.recommended == "whist"


def test_weak_second_defender_lets_the_whister_play_alone() -> None:
    # 002: "Если вистует один из игроков, а другой пасует ... все взятки будут принадлежать
    # вистующему" and "каждый отвечает за взятие половины от обязательного количества взяток":
    # with nothing to take, whisting too only adds a responsibility.
    advice = whist("87.87.987.987", "..K.K", "7d", 1, 0, "whist")
    assert advice.recommended == "pass"


def test_ten_is_checked_not_whisted() -> None:
    # 002: "Десятерная игра, преферанс и мизер не вистуются ... При десятерной (в тех
    # компаниях, где она не вистуется) ... Объявление проверяется."
    advice = whist("87.987.987.K9", "..T.T", "10s", 1, 2, layouts=20)
    assert [option.action for option in advice.options] == ["check"]


def test_misere_is_not_whisted() -> None:
    # 000: "На мизере у Вистующих нет обязательств"; 002: "мизер не вистуются".
    with pytest.raises(AdviceError, match="misère is not whisted"):
        whist_request("87.987.987.K9", "..T.T", "misere", 1, 2)


def test_no_half_whist_on_an_eight() -> None:
    # 002: "Это правило действует только для шестерной и семерной игр, так как на восьмерной
    # обязательное количество взяток равно одной."
    advice = whist("87.987.987.K9", "..T.T", "8s", 1, 0, "pass", layouts=20)
    assert [option.action for option in advice.options] == ["pass", "whist"]
    seven = whist("JT98.JT.98.A9", "..J.K", "7c", 1, 0, "pass", layouts=20)
    assert [option.action for option in seven.options] == ["pass", "half_whist", "whist"]


# ---- the bid ------------------------------------------------------------------

def test_a_hand_without_a_game_passes() -> None:
    # 000: "Если спасовали все три игрока, разыгрывается распасовка - игра, в которой все
    # стараются взять как можно меньше взяток." Scattered kings and queens make no contract
    # and few all-pass tricks: pass.
    advice = bid("KJ8.Q97.KT8.9", layouts=12)
    assert advice.recommendation == "pass" and advice.passing.value.mean > advice.recommended.value.mean


def test_a_strong_hand_bids_rather_than_pass() -> None:
    # 000: "Смысл игры в преферанс заключается в том, чтобы, оценив свои карты, заказать и
    # сыграть наиболее выгодный контракт."
    advice = bid("AKQJ8.AK.A8.7")
    assert advice.recommendation != "pass" and advice.recommended.contract.kind.name == "TRICKS"
    assert advice.recommended.make_probability.mean > 0.7


def test_a_clean_misere_hand_bids_misere() -> None:
    # 000: "Заявив мизер, игрок обязуется не взять ни одной взятки." Sevens, eights and
    # nines in every suit take none.
    advice = bid("987.87.87.987")
    assert advice.recommendation == "misere"


def test_eight_diamonds_rests_on_a_discard_only_double_dummy_gets_right() -> None:
    # 002: "Смешав карты прикупа со своими, игрок сносит две ненужные, на его взгляд, карты
    # ..., не показывая их лицевой стороны", and only "После того как играющий
    # (разыгрывающий) сделал снос и назвал окончательный заказ" do the defenders speak and
    # the play begin; 000: "Игра назначается после сноса." The declarer discards on his own
    # judgement, the defenders' cards closed. ♠AQ ♣KJ ♦AKJ98 ♥A: double dummy every layout
    # is played with the discard that suits it (keep the ♠Q or the ♣KJ as the ♠K, ♣A and
    # ♣Q lie), and 8♦ comes out ahead of 7NT - the "7NT hand told to bid 8♦". A declarer
    # who must choose his discard without seeing their cards makes 8♦ far less often,
    # while 7NT, with tricks to spare, hardly depends on it: the conservative figure shows
    # the gap and the plan says 7NT is the better bid for him. (Measured beyond this test:
    # 40 layouts on seeds 1-3 all give this answer, the 8♦ trick gap three standard errors.)
    advice = bid("AQ.KJ.AKJ98.A", contracts="7nt,8d", layouts=40, blind_discard=40)
    assert advice.recommendation == "8d" and str(advice.recommended.contract) == "8d"
    eight, seven = advice.conservative, advice.conservative_runner_up
    assert str(eight.contract) == "8d" and str(seven.contract) == "7nt" and eight.figure == "blind_discard"
    assert eight.tricks.double_dummy - eight.tricks.conservative > 2 * eight.tricks.std_error > 0
    assert eight.makes.double_dummy - eight.makes.conservative >= 0.1
    gap = {f.contract: f.values["declarer"].double_dummy - f.values["declarer"].conservative for f in (eight, seven)}
    assert gap[eight.contract] > 2 * gap[seven.contract] > 0
    assert seven.values["declarer"].conservative > eight.values["declarer"].conservative
    assert "does better in 7NT" in advice.plan and "its double-dummy edge rests on seeing them" in advice.plan


# ---- the scoring the advice is valued with ------------------------------------

def test_obligations_per_level() -> None:
    # 000 / 003: "Вистующие суммарно должны взять, на шестерной игре не менее 4 взяток, на
    # семерной не менее 2, на восьмерной, девятерной или десятерной не менее 1 взятки."
    # Sochi does not whist a 10 (002: "Десятерная игра ... не вистуются"): no obligation there.
    assert [obligation(k, SOCHI) for k in (6, 7, 8, 9)] == [4, 2, 1, 1]
    assert obligation(10, SOCHI.with_options({"ten_whisted": True})) == 1


def test_each_whister_answers_for_half() -> None:
    # 002: "оба игрока вистовали на шестерной, но один из них взял три взятки, а другой – ни
    # одной. Последний запишет 2 в гору за недобранную взятку. Или, например, на шестерной при
    # двух вистующих разыгрывающий взял девять взяток. Тот, кто взял одну взятку, пишет в гору
    # 2 очка; не взявший ни одной – 4."
    three_nil = records(("A", "B", "C"), "A", 6, {"B": "whist", "C": "whist"}, {"A": 7, "B": 3, "C": 0})
    assert three_nil.mountain == {"A": 0, "B": 0, "C": 2}
    one_nil = records(("A", "B", "C"), "A", 6, {"B": "whist", "C": "whist"}, {"A": 9, "B": 1, "C": 0})
    assert one_nil.mountain == {"A": 0, "B": 2, "C": 4}


def test_half_whist_writes_half_the_obligation() -> None:
    # 002: "записать за половину от обязательного количества взяток (на шестерной – за две
    # взятки, на семерной – за одну)"; a 6 is worth 2 a trick, a 7 worth 4.
    six = records(("A", "B", "C"), "A", 6, {"B": "pass", "C": "half_whist"}, {})
    seven = records(("A", "B", "C"), "A", 7, {"B": "pass", "C": "half_whist"}, {})
    assert dict(six.whists) == {("C", "A"): 2 * 2} and dict(seven.whists) == {("C", "A"): 1 * 4}


def test_returned_whist_writes_everything() -> None:
    # 002: "ранее пасовавший игрок вернул вист на шестерной и взял пять взяток. Он запишет
    # 12 вистов плюс 2 положенных игроку, уходившему «за свои» (который не пишет ничего).
    # Сдатчик пишет консоляцию – 2 виста."
    result = records(("A", "B", "C", "D"), "A", 6, {"B": "half_whist", "C": "pass"}, {"A": 5, "B": 0, "C": 5},
                     dealer="D", returned_by="C")
    assert dict(result.whists) == {("C", "A"): 12 + 2, ("D", "A"): 2}


def test_dealer_returns_the_whist_after_two_passes() -> None:
    # 002: "Если же сдатчик вернул вист (в том числе после паса двух игроков), то в случае
    # подсада разыгрывающего он все висты записывает себе ... Записанных на разыгрывающего в
    # сумме получается 24 виста."
    result = records(("A", "B", "C", "D"), "A", 6, {"B": "pass", "C": "pass"}, {"A": 4, "B": 3, "C": 3},
                     dealer="D", returned_by="D")
    assert dict(result.whists) == {("D", "A"): 24}


def test_consolation_of_the_passer_and_the_dealer() -> None:
    # 002: "на севшего на семерной без двух (взявшего пять) пасовавший и сидевший на прикупе
    # пишут по восемь вистов."
    result = records(("A", "B", "C", "D"), "A", 7, {"B": "whist", "C": "pass"}, {"A": 5, "B": 5, "C": 0},
                     dealer="D")
    assert result.whists[("C", "A")] == Fraction(8) and result.whists[("D", "A")] == Fraction(8)
