"""Typed errors with stable snake_case codes.

`InputError` means the request itself is wrong (CLI exit 2); `NotAWin` means the
input is well formed but the hand does not win under the variant (CLI exit 1).
"""

from __future__ import annotations

import reprlib
from typing import Self


class MjcalcError(Exception):
    """Base error: a stable `code`, a human `message`, optionally where it is."""

    exit_code = 2

    def __init__(self, code: str, message: str, position: int | None = None, source: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.position = position
        self.source = source
        self.winner: str | None = None  # which of several winners (一炮多响) the error is about

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"code": self.code, "message": self.message}
        if self.position is not None:
            out["position"] = self.position
        if self.winner is not None:
            out["winner"] = self.winner
        return out

    def about_winner(self, winner: str) -> Self:
        """A copy naming one of several winners: `李: ...` and `winner` among its fields.

        A copy, since scored hands (and their errors) are cached and shared between hands.
        """
        named = type(self).__new__(type(self))
        named.__dict__.update(self.__dict__)
        named.message = f"{winner}: {self.message}"
        named.winner = winner
        named.args = (named.message,)
        return named


class InputError(MjcalcError):
    """The hand, a flag or a record cannot be understood (exit 2)."""


class RulesetError(InputError):
    """A ruleset file or `--set` override is invalid; the message names file and key."""


class NotAWin(MjcalcError):
    """A well-formed hand that is not a win under the variant's rules (exit 1)."""

    exit_code = 1


def shown(value: object, limit: int = 80) -> str:
    """A short, one-line repr of `value` for an error message: at most `limit` characters.

    Bounded however large or deeply shared the value is (an alias bomb, a 5,000-digit
    integer), and control characters come out escaped, as `repr` writes them.
    """
    try:
        text = _SHORT.repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    text = "".join(ch if ch.isprintable() or ch == " " else ascii(ch)[1:-1] for ch in text)
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


class _ShortRepr(reprlib.Repr):
    """reprlib with room for one message line, and huge integers summarised, not converted."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxother = self.maxlong = 100

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 300:  # str() of a 5,000-digit integer raises, and is slow well before
            return f"<an integer of about {int(x.bit_length() * 0.30103) + 1} digits>"
        return super().repr_int(x, level)

    def repr_str(self, x: str, level: int) -> str:
        return super().repr_str(x[: self.maxstring + 1], level)


_SHORT = _ShortRepr()


# Every error code's message in Chinese and English: what went wrong, in general; the error's own
# message says where and with what. `--lang zh` shows the Chinese one (`localized`); codes never change.
MESSAGES: dict[str, tuple[str, str]] = {
    # tiles and hands
    "unknown_character": ("牌里有无法识别的字符", "a character in the tiles cannot be read"),
    "missing_suit": ("数字后面缺少花色 (m/p/s/z)", "numbers without a suit (m/p/s/z)"),
    "missing_number": ("花色前面缺少数字", "a suit without numbers"),
    "invalid_tile": ("没有这张牌", "no such tile"),
    "not_one_tile": ("这里只能写一张牌", "exactly one tile is needed here"),
    "input_too_long": ("牌写得太长了", "the tiles are too long"),
    "empty_hand": ("没有牌", "no tiles were given"),
    "wrong_tile_count": ("牌数不对", "the number of tiles is wrong"),
    "too_many_copies": ("同一张牌超过 4 张", "more than 4 copies of a tile"),
    "win_tile_not_in_hand": ("和张不在手牌里", "the winning tile is not in the hand"),
    "bad_meld": ("副露不是碰、杠或吃", "a meld that is not a pung, kong or chow"),
    "chow_not_allowed": ("这个规则不能吃", "this ruleset has no chows"),
    "tile_not_in_variant": ("这个规则不用这张牌", "this ruleset does not use this tile"),
    "conflicting_flags": ("这些选项不能同时给", "these options cannot be given together"),
    "bad_seat": ("不是一个座位", "not a seat"),
    "bad_piao": ("飘数必须是 0 到 7 的整数", "the piao count must be a whole number from 0 to 7"),
    "bad_opponent_pungs": ("别家的碰数不对", "the other players' pung counts are wrong"),
    "after_kong_without_kong": ("杠开却没有杠", "a win after a kong, without a kong"),
    "flag_not_in_variant": ("这个规则不用这个选项", "this ruleset does not use this option"),
    "bad_source": ("副露的来源不是一个座位或玩家", "a meld's source is not a seat or a player"),
    "source_on_concealed_kong": ("暗杠没有来源", "a concealed kong has no source"),
    "too_many_wilds": ("财神超过 3 张", "more than 3 wild tiles (cai shen)"),
    "robbed_player_required": ("抢杠要说明被抢的是谁", "robbing a kong needs the robbed player"),
    "bad_robbed_fan": ("被抢杠的番数必须是 0 到 16", "the robbed kong's value must be 0 to 16"),
    "missing_robbed_fan": ("缺少被抢杠的番数", "the robbed kong's value is missing"),
    "robbed_fan_unused": ("这个规则不用被抢杠的番数", "this ruleset does not use the robbed kong's value"),
    "missing_discarder": ("点炮和要说明放冲的是谁", "a discard win needs the discarder"),
    "chow_restricted": ("花不够时不能这样吃碰", "with too few flowers (hua), this call is not allowed"),
    # not a win
    "not_a_winning_hand": ("这手牌不能和", "this hand does not win"),
    "no_ba_zhi": ("没有一门够 8 支", "no suit reaches 8 zhi"),
    "discard_win_not_allowed": ("这个规则不能点炮和", "this ruleset has no discard wins"),
    "needs_three_pungs": ("需要三个碰", "three pungs are needed"),
    "wild_needs_fan": ("有财神要有番才能和", "with a wild tile, the hand needs a scoring pattern"),
    "qi_dui_needs_cai_diao": ("七对要财吊", "seven pairs needs the wild tile as the wait (cai diao)"),
    "piao_needs_cai_shen_tou": ("飘要财神头", "piao needs the wild tile as the pair (cai shen tou)"),
    "not_enough_flowers": ("花不够", "not enough flowers (hua) for this kind of win"),
    "no_waits": ("没有听牌", "no tile completes this hand"),
    "win_not_allowed_during_piao": ("别人飘财时不能这样和", "another player's piao round forbids this win"),
    # rulesets
    "unknown_variant": ("没有这个规则", "no such ruleset"),
    "ruleset_not_found": ("找不到规则文件", "the ruleset file cannot be found"),
    "ruleset_invalid": ("规则文件有错", "the ruleset is invalid"),
    "ruleset_duplicate_key": ("规则文件里有重复的键", "the ruleset repeats a key"),
    "bad_set_option": ("--set 的写法不对", "a --set option is not key=value"),
    "no_settlement": ("这个规则不能结算", "this ruleset has no settlement"),
    # the command line and output
    "usage_error": ("命令用法不对", "the command is not used that way"),
    "output_error": ("输出写不出去", "the output cannot be written"),
    "internal_error": ("程序出错了, 请报告", "a bug: please report it"),
    # batch
    "bad_input_format": ("不认识的输入格式", "an unknown input format"),
    "cannot_read_input": ("输入文件打不开", "the input cannot be read"),
    "bad_jobs": ("--jobs 超出范围", "--jobs is out of range"),
    "record_too_large": ("一条记录太长", "a record is too long"),
    "worker_died": ("一个工作进程死了", "a worker process died"),
    "bad_extra_fields": ("--extra-fields 只能是 error 或 keep", "--extra-fields is error or keep"),
    "bad_date": ("日期要写成 YYYY-MM-DD", "a date is written YYYY-MM-DD"),
    "bad_encoding": ("不是 UTF-8 文本", "not UTF-8 text"),
    "bad_json": ("不是 JSON", "not valid JSON"),
    "bad_yaml": ("不是 YAML", "not valid YAML"),
    "bad_csv": ("不是 CSV", "not valid CSV"),
    "bad_csv_row": ("CSV 这一行不对", "a CSV row is wrong"),
    "bad_record": ("记录不是一组字段", "a record is not a mapping of fields"),
    "missing_field": ("缺少字段", "a field is missing"),
    "unknown_field": ("不认识的字段", "an unknown field"),
    "bad_field": ("字段的值不对", "a field has a wrong value"),
    # games
    "game_over": ("牌局已经结束 (有人子输光)", "the game has ended (a player's chips ran out)"),
    "multiple_winners_not_allowed": ("这个规则没有一炮多响", "this ruleset has no several winners on one discard"),
    "unknown_player": ("没有这个玩家", "no such player"),
    "self_fed_meld": ("副露不能来自自己", "a meld cannot be fed by its owner"),
    "two_dealers": ("庄家不对", "the dealer is not the one the game works out"),
    "computed_field": ("这个字段由牌局自己算出", "the game works this field out itself"),
    "conflicting_fields": ("这些字段不能同时给", "these fields cannot be given together"),
    "bad_game": ("牌局文件有错", "the game file is wrong"),
    "game_not_found": ("找不到牌局文件", "the game file cannot be found"),
    "game_not_a_file": ("牌局不是一个普通文件", "the game is not a regular file"),
    "game_too_large": ("牌局文件太大", "the game file is too large"),
    "missing_dealer": ("缺少首局庄家", "the first dealer is missing"),
    # live games
    "no_game": ("还没有牌局", "no game yet"),
    "unknown_game": ("没有这个牌局", "no such game"),
    "unknown_hand": ("牌局里没有这一局", "the game has no such hand"),
    "advise_not_supported": ("这个规则没有向听规则, 不能给出打牌建议", "this ruleset's scorer has no shanten rules to advise with"),
    "nothing_to_undo": ("没有可撤销的局", "no hand to take back"),
    "nothing_to_redo": ("没有可恢复的撤销", "no undo to take back"),
    "stale_version": ("别人刚改了这个牌局, 请看最新的再改", "someone else changed the game first: look again"),
    "bad_db": ("牌局数据库不能用", "the games database cannot be used"),
    "db_too_new": ("牌局数据库比这个 mjcalc 新", "the games database is newer than this mjcalc"),
    "db_busy": ("牌局数据库正忙, 请再试", "the games database is busy: try again"),
    # mjcalc serve
    "missing_extra": ("需要安装 web 扩展", "the web extra is not installed"),
    "cannot_listen": ("无法监听这个地址或端口", "cannot listen on that address or port"),
    "body_too_large": ("请求太大", "the request body is too large"),
    "missing_token": ("缺少访问令牌", "the access token is missing"),
    "bad_token": ("访问令牌打不开这个牌局", "the access token does not open this game"),
    "bad_host": ("只在本机回答", "this server answers on loopback only"),
    "bad_origin": ("修改只能来自本服务器的页面", "a change must come from this server's own page"),
    "bad_content_type": ("请求必须是 JSON", "the request must be sent as JSON"),
    "not_found": ("没有这个地址", "no such address"),
    "method_not_allowed": ("这个地址不接受这种请求", "this address does not take that method"),
    "bad_request": ("请求不对", "a bad request"),
    "too_many_streams": ("同时跟踪牌局的页面太多, 请关掉一些再试", "too many pages follow games at once: close some, then try again"),
    "busy": ("服务器正忙, 请稍后再试", "the server is busy: try again in a moment"),
    "too_many_requests": ("同时发出的计算请求太多, 请等回答后再问", "too many costly requests at once: wait for the answers"),
}


def localized(code: str, message: str, lang: str | None) -> str:
    """An error's message in a language: `zh` puts the code's Chinese message first, then the
    specifics; `en` or None (the default) is the message itself. The code never changes."""
    if lang != "zh" or code not in MESSAGES:
        return message
    return f"{MESSAGES[code][0]}: {message}"
