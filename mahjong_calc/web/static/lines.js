// A hand in one sentence, as the hand list and the notices say it: `王点炮, 李和, 4 番` on a Chinese page
// (the discard in the variant's own word, /api/variants' `discarder`: Wuhu 点炮, Chizhou 放冲), `李 won,
// discard of 王, value 4` on an English one; and whether two entries are the same hand.
import { problem } from "./catalog.js";
import { currentLang, t } from "./i18n.js";

function discardWord(variant) {
  const own = variant && variant.discarder && variant.discarder[currentLang()];
  return own || t("discarder");
}

// h: a hand of the game's state; variant: its entry of /api/variants
export function handLine(h, variant) {
  if (h.error) return `${t("error")}: ${problem({ error: h.error })}`;
  if (h.draw) return t("draw");
  const rs = Array.isArray(h.result) ? h.result : [h.result];
  const who = h.winners ? h.winners.reduce((a, b) => t("line_winners", { a, b })) : h.winner;
  const value = t("line_value", { v: rs.map((r) => r.value).join("+") });
  let how;
  if (h.self_draw && !h.discarder) how = t("line_self_draw", { p: who });
  else if (h.robbing_kong || (variant && variant.self_draw_only)) how = t("line_robbed", { p: who, d: h.discarder });
  else how = t("line_discard", { p: who, d: h.discarder, discard: discardWord(variant) });
  return `${how}, ${value}`;
}

// what a notice says of a hand: its sentence, or that it is an error row
export function noticeLine(h, variant) {
  if (!h) return "";
  return h.error ? t("notice_error") : handLine(h, variant);
}

// the same hand, as two phones would enter it: the same winner(s), the same way (self-draw, or whose discard),
// the same tiles (in any order but the winning tile, last) and melds; a draw is the same as a draw
function tilesOf(text) { return String(text || "").match(/[0-9]+[mpsz]/g) || []; }
function handKey(e) {
  const tiles = tilesOf(e.hand).flatMap((g) => [...g.slice(0, -1)].map((d) => d + g.slice(-1)));
  const last = tiles.pop();
  return JSON.stringify([e.winner, [...tiles].sort(), last, [...(e.melds || [])].sort(), [...(e.concealed_kongs || [])].sort()]);
}
export function sameHand(a, b) {
  if (!a || !b) return false;
  if (a.draw || b.draw) return !!a.draw && !!b.draw;
  const way = (x) => JSON.stringify([!!x.self_draw, x.discarder || null]);
  if (way(a) !== way(b)) return false;
  const own = (x) => (Array.isArray(x.winners) ? x.winners : [x]).map(handKey).sort().join("|");
  return own(a) === own(b);
}
