// What the page knows of the rules and errors, all from Python: the variants (`/api/variants`: tiles,
// flags, the others' fields), every error code's message (`/api/messages`) and the page's own words
// (`/api/words`, i18n.js). Loaded once, read-only.
import { $ } from "./dom.js";
import { currentLang, loadWords, t } from "./i18n.js";

let variants = [];
let messages = {};

export async function loadCatalog(home) {
  const v = await home.request("GET", "/api/variants");
  variants = v.status === 200 ? v.data : [];
  const m = await home.request("GET", "/api/messages");
  messages = m.status === 200 ? m.data : {};
  await loadWords(home);
}

export function allVariants() { return variants; }
export function variantOf(name) { return variants.find((v) => v.name === name) || variants[0]; }
// a variant by its name in the page's language (芜湖麻将 315), not its code
export function variantName(name) { const v = variants.find((x) => x.name === name); return v ? v[currentLang()] : name; }
// who discarded, in the variant's own Chinese word (the seeds': Wuhu 点炮, Chizhou 放冲; /api/variants' `discarder`), else the page's
export function discarderWord(name) {
  const v = variants.find((x) => x.name === name);
  return currentLang() === "zh" && v && v.discarder && v.discarder.zh ? v.discarder.zh : t("discarder");
}
export function tileName(tile) { const x = variants.flatMap((v) => v.tiles).find((v) => v.tile === tile); return x ? x[currentLang()] : tile; }

// an error in the page's language: the server wrote its message in it (the request's language). The clauses
// that speak of the command line or of record fields (`--discarder`, `mjcalc waits`, `self_draw`), which mean
// nothing on the page, are left out; when nothing is left, the code's general message. The code itself is no
// word for a reader: it goes on the message's element (data-code), not into its text.
const FLAG_WORD = /(^|[\s(`'"])--?[a-z]/i;
const CODE_WORD = /`[^`]*[A-Za-z_]{3,}[^`]*`/;
// a refusal of a server at its limits (429, 503) says what it is and when to try again, not the server's
// specifics: every one of these codes has its message in the catalogue
const REFUSALS = new Set(["too_many_requests", "too_many_streams", "too_many_games", "busy"]);
export function problem(data) {
  const e = data.error || data.reason || {};
  const known = messages[e.code];
  const general = known ? known[currentLang()] : "";
  if (general && REFUSALS.has(e.code)) {
    return data.retry_after != null ? `${general} (${t("retry_in", { s: data.retry_after })})` : general;
  }
  const kept = (e.message || "").split(/;\s*/).filter((c) => c.trim() && !FLAG_WORD.test(c) && !(general && CODE_WORD.test(c)));
  if (kept.length) return kept.join("; ").replace(/`/g, "").trim();
  const who = e.winner ? `${e.winner}: ` : "";  // which of several winners (一炮多响)
  return general ? who + general : t("error");
}
export function codeOf(data) { const e = (data && (data.error || data.reason)) || {}; return e.code || ""; }
// say a refusal of the home's (the answer's data) in a message line, with its code on the element
export function sayProblem(data, where) {
  const box = $(where || "message");
  box.textContent = problem(data);
  box.className = "message";
  box.dataset.code = codeOf(data);
}
