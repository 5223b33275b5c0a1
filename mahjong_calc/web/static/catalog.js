// What the page knows of the rules and errors, all from Python: the variants (`/api/variants`: tiles,
// flags, the others' fields) and every error code's message (`/api/messages`). Loaded once, read-only.
import { currentLang, t } from "./i18n.js";

let variants = [];
let messages = {};

export async function loadCatalog(home) {
  const v = await home.request("GET", "/api/variants");
  variants = v.status === 200 ? v.data : [];
  const m = await home.request("GET", "/api/messages");
  messages = m.status === 200 ? m.data : {};
}

export function allVariants() { return variants; }
export function variantOf(name) { return variants.find((v) => v.name === name) || variants[0]; }
export function tileName(tile) { const x = variants.flatMap((v) => v.tiles).find((v) => v.tile === tile); return x ? x[currentLang()] : tile; }

// an error in the page's language: the code's message, then the specifics, unless
// they speak of the command line (a flag such as --discarder means nothing on the page)
const FLAG_WORD = /(^|[\s(`'"])--?[a-z]/i;
// a refusal of a server at its limits (429, 503) says what it is and when to try again, not the server's
// English specifics: every one of these codes has its message in the catalogue
const REFUSALS = new Set(["too_many_requests", "too_many_streams", "too_many_games", "busy"]);
export function problem(data) {
  const e = data.error || data.reason || {};
  const known = messages[e.code];
  if (known && REFUSALS.has(e.code)) {
    const wait = data.retry_after != null ? ` (${t("retry_in", { s: data.retry_after })})` : "";
    return `${known[currentLang()]}${wait} [${e.code}]`;
  }
  const detail = e.message || "";
  if (!known) return `${detail} [${e.code || "?"}]`;
  const general = known[currentLang()];
  const plain = detail && !FLAG_WORD.test(detail) && (currentLang() === "en" ? detail : `${general}: ${detail}`);
  return `${plain || general} [${e.code}]`;
}
