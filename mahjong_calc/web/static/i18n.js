// The language on screen (the only page-wide setting, remembered on this phone) and the lookup of the
// page's words. The words themselves are in the one catalogue (web/page_words.py, the .po files):
// `/api/words` gives them in both languages, on a site as static/words.json made by the same Python.
const LANGS = ["zh", "en"];
const KEY = "mjcalc.lang";
let words = { zh: {}, en: {} };

// ?lang= chooses (and is remembered), else the choice remembered on this phone, else Chinese
function stored() { try { return localStorage.getItem(KEY); } catch (e) { return null; } }
function remember(value) { try { localStorage.setItem(KEY, value); } catch (e) { /* private mode: this visit only */ } }
const asked = new URLSearchParams(location.search).get("lang");
let lang = LANGS.includes(asked) ? asked : LANGS.includes(stored()) ? stored() : "zh";
if (LANGS.includes(asked)) remember(asked);
const listeners = [];

export async function loadWords(home) {
  const answer = await home.request("GET", "/api/words");
  if (answer.status === 200) words = answer.data;
}
export function currentLang() { return lang; }
export function t(key, vars) {
  const text = (words[lang] && words[lang][key]) || key;
  return vars ? text.replace(/\{(\w+)\}/g, (all, k) => (k in vars ? vars[k] : all)) : text;
}
export function onLang(fn) { listeners.push(fn); }
export function toggleLang() {
  lang = lang === "zh" ? "en" : "zh";
  remember(lang);
  applyLang();
}
export function applyLang() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = t(n.dataset.i18n); });
  document.querySelectorAll("[data-i18n-placeholder]").forEach((n) => { n.placeholder = t(n.dataset.i18nPlaceholder); });
  document.querySelectorAll("[data-i18n-label]").forEach((n) => { n.setAttribute("aria-label", t(n.dataset.i18nLabel)); });
  const button = document.getElementById("lang");
  if (button) button.textContent = lang === "zh" ? "EN" : "中文";
  for (const fn of listeners) fn();
}
