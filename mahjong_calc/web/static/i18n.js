// The page's words in Chinese and English, and the language on screen (the only page-wide setting).
const T = {
  zh: {
    subtitle: "麻将算分", new_game: "新牌局", variant: "规则", dealer: "首局庄家", start: "开始",
    tab_play: "记分", tab_waits: "听牌", no_game: "先选择或开始一个牌局。", winner: "和牌", self_draw: "自摸",
    discarder: "放冲", from: "来自", hand: "手牌", melds: "副露", record: "计分并记录", draw: "流局",
    clear: "清空", standings: "积分", undo: "撤销上一局", export: "导出 (YAML)", chart: "走势",
    hands: "各局", waits_hint: "点 13 张牌 (和牌前), 看听哪些牌、各值多少。", waits_go: "查听牌",
    win_hint: "最后点的一张是和张 (黄框)。点手牌中的牌可去掉。", mode_hand: "手牌", mode_pung: "碰",
    mode_kong: "明杠", mode_chow: "吃", mode_ckong: "暗杠", nothing: "没有可撤销的局", error: "错误", nobody: "—", player: "玩家", total: "积分",
    chips: "子", value: "番", pays: "支付", recorded: "已记录第 {n} 局", undone: "已撤销", draw_done: "流局已记录",
    need_winner: "请选择和牌者", need_discarder: "请选择放冲者, 或勾选自摸", tile: "牌", left: "剩",
    on_discard: "点炮", on_self_draw: "自摸", game: "牌局", hands_n: "局", need13: "需要 13 张",
    players_needed: "请填写四位玩家", liability: "包牌", start_line: "开局",
    stale: "别人刚改了这个牌局: 已显示最新的, 请再试一次", join: "加入链接",
    redo: "恢复撤销", redone: "已恢复第 {n} 局", hand_n: "第 {n} 局", editing_hand: "正在修改第 {n} 局", delete_hand: "删除第 {n} 局", cancel: "取消", save: "保存第 {n} 局",
    confirm_draw: "把第 {n} 局记为流局?", confirm_undo: "撤销第 {n} 局 ({what})?", confirm_delete: "删除第 {n} 局 ({what})?",
    undone_n: "已撤销第 {n} 局", deleted: "已删除第 {n} 局", saved: "已修改第 {n} 局", now_error: "第 {n} 局现在是错误行: {what}",
    no_more: "{tile} 已经有 4 张了", cannot_load: "这一局的牌无法在页面上显示; 请在命令行修改", whose: "谁的副露",
    winner_own: "和牌者", others_melds: "别家副露", hua: "花", la_zi: "拉子", piao_by: "飘财者", piao_count: "飘数",
    sheng_zhang: "打生张者", wild: "财神", arithmetic: "算式", why_jiao: "交",
    multi: "一炮多响", editing: "正在输入 {p} 的牌 (再点一次 {p} 取消)", need_discarder_multi: "一炮多响: 请选择放冲者",
    tab_advise: "建议", advise_hint: "点或粘贴 14 张牌 (摸牌后), 看打哪张: 向听按本规则算 (八支, 花, 财神...)。",
    advise_go: "打哪张", paste: "粘贴", need14: "需要 {n} 张", discard: "打", shanten: "向听",
    ukeire: "有效牌", expected: "期望", already_win: "已和牌, 番值 {v}", tenpai: "听",
    home_serve: "服务器: 各手机共享牌局", home_site: "本机: 不用服务器, 可离线", loading: "正在载入算分引擎…", engine_ready: "算分引擎已就绪",
    engine_failed: "算分引擎载入失败", export_csv: "导出 (CSV)", import: "导入牌局文件", imported: "已导入牌局 {ids}",

    // a game begun from a phone, the join panel, notices of the others' changes, refusals (to move into the catalogue)
    join_show: "显示二维码", join_hide: "收起", join_scan: "让其他人用手机扫码加入",
    join_local: "只有本机能打开这个地址。要让别的手机加入, 请这样启动服务器:",
    me: "本机玩家", me_nobody: "(未选)",
    notice_by_hand: "{by} 记录了第 {n} 局: {what}", notice_hand: "第 {n} 局已记录: {what}",
    notice_by_edit: "{by} 修改了第 {n} 局: {what}", notice_edit: "第 {n} 局已修改: {what}",
    notice_by_delete: "{by} 删除了第 {n} 局", notice_delete: "第 {n} 局已删除",
    notice_by_undo: "{by} 撤销了第 {n} 局", notice_undo: "第 {n} 局已撤销",
    notice_by_redo: "{by} 恢复了第 {n} 局", notice_redo: "第 {n} 局已恢复",
    notice_won: "{p} 和", notice_self_draw: "{p} 自摸", notice_discard: "{p} 放冲",
    notice_discard_wuhu: "{p} 点炮", notice_discard_chizhou: "{p} 放冲", notice_robbed: "{p} 被抢杠",
    notice_error: "错误行", retry_in: "{s} 秒后再试", stream_refused: "暂时收不到别人的修改: {what}",
  },
  en: {
    subtitle: "mahjong scores", new_game: "New game", variant: "Rules", dealer: "First dealer", start: "Start",
    tab_play: "Score", tab_waits: "Waits", no_game: "Choose or start a game first.", winner: "Winner",
    self_draw: "Self-draw", discarder: "Discarder", from: "from", hand: "Hand", melds: "Melds",
    record: "Score & record", draw: "Draw", clear: "Clear", standings: "Standings", undo: "Undo last hand",
    export: "Export (YAML)", chart: "Running totals", hands: "Hands",
    waits_hint: "Tap the 13 tiles before the win to see what completes the hand and what it is worth.",
    waits_go: "Show waits", win_hint: "The last tile you tap is the winning tile (yellow). Tap a hand tile to remove it.",
    mode_hand: "Hand", mode_pung: "Pung", mode_kong: "Kong", mode_chow: "Chow", mode_ckong: "Concealed kong",
    nothing: "No hand to take back", error: "error", nobody: "—", player: "Player", total: "Total", chips: "Chips", value: "Value", pays: "Pays",
    recorded: "Hand {n} recorded", undone: "Undone", draw_done: "Draw recorded", need_winner: "Choose the winner",
    need_discarder: "Choose who discarded, or tick self-draw", tile: "Tile", left: "Left",
    on_discard: "On a discard", on_self_draw: "Self-draw", game: "Game", hands_n: "hands", need13: "13 tiles needed",
    players_needed: "Fill in the four players", liability: "Liability", start_line: "start",
    multi: "Several winners (一炮多响)", editing: "Entering {p}'s tiles (tap {p} again to drop)",
    need_discarder_multi: "Several winners: choose who discarded",
    stale: "Someone else just changed this game: it is shown as it now stands; try again", join: "Join link",
    redo: "Redo", redone: "Put back hand {n}", hand_n: "Hand {n}", editing_hand: "Changing hand {n}", delete_hand: "Delete hand {n}", cancel: "Cancel", save: "Save hand {n}",
    confirm_draw: "Record hand {n} as a draw?", confirm_undo: "Take back hand {n} ({what})?", confirm_delete: "Delete hand {n} ({what})?",
    undone_n: "Took back hand {n}", deleted: "Deleted hand {n}", saved: "Hand {n} changed", now_error: "Hand {n} is now an error: {what}",
    no_more: "All 4 copies of {tile} are in play", cannot_load: "This hand cannot be shown on the page; change it on the command line",
    whose: "Whose meld", winner_own: "the winner", others_melds: "Others' melds", hua: "Flowers", la_zi: "At la zi",
    piao_by: "In a piao round", piao_count: "Piao so far", sheng_zhang: "Discarded an unseen tile", wild: "Wild tile",
    arithmetic: "Working", why_jiao: "jiao",
    tab_advise: "Advise", advise_hint: "Tap or paste the 14 tiles after the draw to see which to throw: shanten under these rules (八支, 花, 财神...).",
    advise_go: "What to throw", paste: "Paste", need14: "{n} tiles needed", discard: "Throw", shanten: "Shanten",
    ukeire: "Useful tiles", expected: "Expected", already_win: "Already a win, value {v}", tenpai: "tenpai",
    home_serve: "Server: the game is shared between phones", home_site: "This phone: no server, works offline",
    loading: "Loading the scoring engine…", engine_ready: "Scoring engine ready", engine_failed: "The scoring engine did not load",
    export_csv: "Export (CSV)", import: "Import a game file", imported: "Imported game {ids}",

    // a game begun from a phone, the join panel, notices of the others' changes, refusals (to move into the catalogue)
    join_show: "Show QR code", join_hide: "Hide", join_scan: "Let the others scan this with their phones to join",
    join_local: "Only this machine can open this address. To let other phones join, start the server so:",
    me: "This phone is", me_nobody: "(not chosen)",
    notice_by_hand: "{by} recorded hand {n}: {what}", notice_hand: "Hand {n} recorded: {what}",
    notice_by_edit: "{by} changed hand {n}: {what}", notice_edit: "Hand {n} changed: {what}",
    notice_by_delete: "{by} deleted hand {n}", notice_delete: "Hand {n} deleted",
    notice_by_undo: "{by} took back hand {n}", notice_undo: "Hand {n} taken back",
    notice_by_redo: "{by} put back hand {n}", notice_redo: "Hand {n} put back",
    notice_won: "{p} won", notice_self_draw: "{p} self-drawn", notice_discard: "{p} dealt in",
    notice_discard_wuhu: "{p} dealt in", notice_discard_chizhou: "{p} dealt in", notice_robbed: "{p}'s kong robbed",
    notice_error: "an error row", retry_in: "try again in {s} s", stream_refused: "The others' changes cannot reach this phone for now: {what}",
  },
};

const params = new URLSearchParams(location.search);
let lang = params.get("lang") || localStorage.getItem("mjcalc.lang") || "zh";
if (!T[lang]) lang = "zh";
const listeners = [];

export function currentLang() { return lang; }
export function t(key, vars) { return (T[lang][key] || key).replace(/\{(\w+)\}/g, (_, k) => vars[k]); }
export function onLang(fn) { listeners.push(fn); }
export function toggleLang() {
  lang = lang === "zh" ? "en" : "zh";
  localStorage.setItem("mjcalc.lang", lang);
  applyLang();
}
export function applyLang() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = t(n.dataset.i18n); });
  document.getElementById("lang").textContent = lang === "zh" ? "EN" : "中文";
  for (const fn of listeners) fn();
}
