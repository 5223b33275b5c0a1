/* A compiled mirror of scoring/wuhu.py, for `mjcalc batch`.
 *
 * The Python scorer is the reference: its detectors and arithmetic define the rules,
 * and this file follows them step by step (same search order, same first-of-equals
 * choice, same JSON text), so the two agree byte for byte. tests/test_wuhu_accel.py
 * checks that on random and malformed records and on every seed-table hand.
 *
 * A Plan holds one Wuhu ruleset's numbers, options, labels and pattern list, built
 * from the validated Ruleset by mahjong_calc/accel.py. `Plan.score(key)` takes a
 * normalized batch record key (records.KEY_FIELDS order; the Plan is told at construction
 * where in the key each field it reads sits, and which other fields must hold their
 * default, so a record that sets a flag this file does not implement is declined) and returns
 *   (body, value, total, (next, opposite, previous), patterns)  for a win, body being
 *       the UTF-8 JSON text of ScoreResult.to_dict() after its opening brace,
 *   (code, zhi)                                                  for a well-formed hand that is not a win,
 *   None                                                         for anything else.
 * None ("decline") covers every input error and every rare case (wilds, spaces or
 * honour letters in the notation, chow melds...): the caller then runs the Python
 * scorer, which gives the answer or the error. So this file never has to word an error.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define NT 34
#define MAX_TILES 14
#define MAX_DEC 64   /* ways to cut one suit into sets; beyond this, decline */
#define MAX_ARR 256  /* arrangements of one hand; beyond this, decline */
#define MAX_PAT 32
#define MAX_ITEMS 40

enum { PUNG, KONG, CHOW };
enum { L_DI_FAN, L_ZHI_FAN, L_MING_GANG, L_AN_GANG, L_DEALER, L_JIAO, L_JIAO_SELF_DRAW, N_FIXED };
/* The record fields this file reads (exported as FIELDS); every other flag must be absent. */
enum { F_HAND, F_WIN, F_SELF_DRAW, F_DEALER, F_DEALER_SEAT, F_MELDS, F_KONGS, F_AFTER_KONG, F_HEAVENLY, F_EARTHLY,
       F_DISCARDER, N_FIELDS };
static const char *FIELDS[N_FIELDS] = {
    "hand", "win", "self_draw", "dealer", "dealer_seat", "melds", "concealed_kongs", "after_kong", "heavenly",
    "earthly", "discarder",
};
#define MAX_ABSENT 64
static const char *SEAT_NAMES[3] = {"next", "opposite", "previous"};

typedef struct { signed char kind, first, declared, concealed; } TSet;
typedef struct { signed char pair, win_in; TSet sets[4]; } Arr;
typedef struct { signed char n; TSet sets[4]; } Dec;

/* ---- the plan ------------------------------------------------------------------- */

typedef struct Plan Plan;
typedef struct {
    const Plan *plan;
    const Arr *arr;
    const int *counts; /* every held tile, melds included (a kong counts 4) */
    int after_kong, heavenly, earthly;
} Cand;
typedef int (*Detector)(const Cand *);

typedef struct {
    Detector detect;
    int jiao_role;
    char *head;   /* {"key": …, "zh": …, "en": …, "value":  */
    char *zh;     /* the zh label, JSON-escaped, for details */
    PyObject *key;
} Pattern;

struct Plan {
    PyObject_HEAD
    unsigned char allowed[NT];
    long min_zhi, di_fan[4], factor_num[2], factor_den[2];
    long zui_zi, zui_zi_mult, jiao, jiao_extra, jiao_self_draw, ming_gang, an_gang;
    int opt_edge, opt_si_he_exposed, opt_kongs_same_suit, opt_gang_ya_jiao, opt_jiao_each, opt_dealer_extra;
    char *factor_text[2];
    char *prefix;
    char *label_head[N_FIXED];
    int npat, gang_hou_kai_hua;
    Pattern pat[MAX_PAT];
    PyObject *jiao_key;
    Py_ssize_t key_len, field_at[N_FIELDS], absent_at[MAX_ABSENT];
    PyObject *absent_default[MAX_ABSENT]; /* owned */
    int nabsent;
};

/* ---- detectors: one per pattern, as in the patterns package ------------------------------ */

static int suit_mask(const int *counts, int *honours)
{
    int mask = 0;
    for (int t = 0; t < 27; t++)
        if (counts[t]) mask |= 1 << (t / 9);
    *honours = 0;
    for (int t = 27; t < NT; t++)
        if (counts[t]) *honours = 1;
    return mask;
}

static int one_suit(int mask) { return mask == 1 || mask == 2 || mask == 4; }

static int det_dui_dui_hu(const Cand *c)
{
    for (int i = 0; i < 4; i++)
        if (c->arr->sets[i].kind == CHOW) return 0;
    return 1;
}

static int det_qing_yi_se(const Cand *c)
{
    int honours, mask = suit_mask(c->counts, &honours);
    return one_suit(mask) && !honours;
}

static int det_hun_yi_se(const Cand *c)
{
    int honours, mask = suit_mask(c->counts, &honours);
    return one_suit(mask) && honours;
}

static int det_tong_tian(const Cand *c)
{
    int firsts[NT] = {0};
    for (int i = 0; i < 4; i++)
        if (c->arr->sets[i].kind == CHOW) firsts[(int)c->arr->sets[i].first] = 1;
    for (int base = 0; base < 27; base += 9)
        if (firsts[base] && firsts[base + 3] && firsts[base + 6]) return 1;
    return 0;
}

static int det_tian_hu(const Cand *c) { return c->heavenly; }
static int det_di_hu(const Cand *c) { return c->earthly; }
static int det_after_kong(const Cand *c) { return c->after_kong; } /* gang_kai, gang_hou_kai_hua */

static int si_he_tiles(const Cand *c)
{
    int pung[NT] = {0}, chow[NT] = {0}, n = 0;
    for (int i = 0; i < 4; i++) {
        const TSet *s = &c->arr->sets[i];
        if (s->kind == PUNG && (c->plan->opt_si_he_exposed || !s->declared)) pung[(int)s->first] = 1;
        if (s->kind == CHOW)
            for (int d = 0; d < 3; d++) chow[s->first + d] = 1;
    }
    for (int t = 0; t < NT; t++) n += pung[t] && chow[t];
    return n;
}

static int det_si_he(const Cand *c) { return si_he_tiles(c) == 1; }
static int det_shuang_si_he(const Cand *c) { return si_he_tiles(c) >= 2; }

static int det_shuang_ba_zhi(const Cand *c)
{
    int kongs[3] = {0};
    for (int i = 0; i < 4; i++) {
        const TSet *s = &c->arr->sets[i];
        if (s->kind == KONG && s->first < 27) kongs[s->first / 9]++;
    }
    for (int suit = 0; suit < 3; suit++) {
        int size = 0, others = 0, pair_in_one = 0;
        for (int t = suit * 9; t < suit * 9 + 9; t++) size += c->counts[t];
        if (size < 8) continue;
        for (int k = 0; k < 3; k++) {
            if (k == suit) continue;
            others += kongs[k];
            if (kongs[k] >= 2) pair_in_one = 1;
        }
        if (c->plan->opt_kongs_same_suit ? pair_in_one : others >= 2) return 1;
    }
    return 0;
}

static const struct { const char *name; Detector fn; } DETECTORS[] = {
    {"dui_dui_hu", det_dui_dui_hu},   {"qing_yi_se", det_qing_yi_se},
    {"hun_yi_se", det_hun_yi_se},     {"tong_tian", det_tong_tian},
    {"tian_hu", det_tian_hu},         {"di_hu", det_di_hu},
    {"gang_kai", det_after_kong},     {"gang_hou_kai_hua", det_after_kong},
    {"si_he", det_si_he},             {"shuang_si_he", det_shuang_si_he},
    {"shuang_ba_zhi", det_shuang_ba_zhi},
};

/* ---- splitting tiles into a pair plus sets (decompose.py) --------------------------- */

/* Every way to cut c[0..len) (one suit, tiles base..) into pungs and chows, in the
 * Python search order: lowest tile first, pung before chow. Returns 0 on overflow. */
static int sets_only(int *c, int len, int base, int honour, int start, Dec *cur, Dec *out, int *nout)
{
    int i = start;
    while (i < len && c[i] == 0) i++;
    if (i == len) {
        if (*nout >= MAX_DEC) return 0;
        out[(*nout)++] = *cur;
        return 1;
    }
    if (cur->n >= 4) return 1; /* more than four sets: not a hand shape we score */
    if (c[i] >= 3) {
        c[i] -= 3;
        cur->sets[(int)cur->n++] = (TSet){PUNG, (signed char)(base + i), 0, 1};
        int ok = sets_only(c, len, base, honour, i, cur, out, nout);
        cur->n--;
        c[i] += 3;
        if (!ok) return 0;
    }
    if (!honour && i <= 6 && c[i + 1] && c[i + 2]) {
        c[i]--, c[i + 1]--, c[i + 2]--;
        cur->sets[(int)cur->n++] = (TSet){CHOW, (signed char)(base + i), 0, 1};
        int ok = sets_only(c, len, base, honour, i, cur, out, nout);
        cur->n--;
        c[i]++, c[i + 1]++, c[i + 2]++;
        if (!ok) return 0;
    }
    return 1;
}

static const int GROUP_BASE[4] = {0, 9, 18, 27}, GROUP_LEN[4] = {9, 9, 9, 7};

static int group_decs(const int *counts, int g, Dec *out, int *nout)
{
    int c[9];
    Dec cur = {0};
    memcpy(c, counts + GROUP_BASE[g], sizeof(int) * GROUP_LEN[g]);
    *nout = 0;
    return sets_only(c, GROUP_LEN[g], GROUP_BASE[g], g == 3, 0, &cur, out, nout);
}

/* Whether c[i..len) cuts into pungs and chows (the first way found will do). */
static int cuts_into_sets(int *c, int len, int honour, int i)
{
    while (i < len && c[i] == 0) i++;
    if (i == len) return 1;
    if (c[i] >= 3) {
        c[i] -= 3;
        int ok = cuts_into_sets(c, len, honour, i);
        c[i] += 3;
        if (ok) return 1;
    }
    if (!honour && i <= 6 && c[i + 1] && c[i + 2]) {
        c[i]--, c[i + 1]--, c[i + 2]--;
        int ok = cuts_into_sets(c, len, honour, i);
        c[i]++, c[i + 1]++, c[i + 2]++;
        if (ok) return 1;
    }
    return 0;
}

/* Whether one suit is sets only (size 3k) or a pair plus sets (3k+2), memoised on
 * the suit's counts read as a base-5 number (0 unknown, 1 no, 2 yes). */
static unsigned char ok_memo_suited[1953125], ok_memo_honours[78125];

static int group_ok(const int *counts, int g)
{
    int c[9], size = 0, len = GROUP_LEN[g], honour = g == 3, key = 0, ok = 0;
    unsigned char *memo = honour ? ok_memo_honours : ok_memo_suited;
    memcpy(c, counts + GROUP_BASE[g], sizeof(int) * len);
    for (int i = 0; i < len; i++) size += c[i], key = key * 5 + c[i];
    if (size % 3 == 1) return 0;
    if (memo[key]) return memo[key] - 1;
    if (size % 3 == 0) ok = cuts_into_sets(c, len, honour, 0);
    for (int i = 0; i < len && size % 3 == 2 && !ok; i++) {
        if (c[i] < 2) continue;
        c[i] -= 2;
        ok = cuts_into_sets(c, len, honour, 0);
        c[i] += 2;
    }
    memo[key] = (unsigned char)(ok + 1);
    return ok;
}

/* waits_before_win: tiles, ascending, that complete the 13 tiles before the win
 * (a tile of which all four copies are held cannot be waited on). As decompose.waits:
 * the new tile joins suit g, after which exactly one suit may hold the pair and
 * every other suit must already be complete. Counts are at most 4 (checked before). */
static int find_waits(const int *c13, const int *held, int *waits)
{
    int n = 0, work[NT], sizes[4], ok[4];
    memcpy(work, c13, sizeof work);
    for (int g = 0; g < 4; g++) {
        sizes[g] = 0;
        for (int i = GROUP_BASE[g]; i < GROUP_BASE[g] + GROUP_LEN[g]; i++) sizes[g] += c13[i];
        ok[g] = group_ok(c13, g);
    }
    for (int g = 0; g < 4; g++) {
        int pairs = 0, others_ok = 1;
        for (int h = 0; h < 4; h++) {
            pairs += (sizes[h] + (h == g)) % 3 == 2;
            if (h != g && !ok[h]) others_ok = 0;
        }
        if (pairs != 1 || !others_ok) continue;
        for (int t = GROUP_BASE[g]; t < GROUP_BASE[g] + GROUP_LEN[g]; t++) {
            int near = c13[t] > 0;
            for (int d = -2; d <= 2 && !near && g < 3; d++) {
                int u = t + d;
                if (d && u >= GROUP_BASE[g] && u < GROUP_BASE[g] + 9 && c13[u]) near = 1;
            }
            if (!near || held[t] >= 4) continue;
            work[t]++;
            if (group_ok(work, g)) waits[n++] = t;
            work[t]--;
        }
    }
    return n;
}

/* arrangements(): every split of the concealed tiles and every place of the winning
 * tile, in the Python order. Returns the count, or -1 on overflow. */
static int arrangements(const int *conc, const TSet *melds, int nmelds, int win, Arr *out)
{
    int pair_group = -1, n = 0;
    for (int g = 0; g < 4; g++) {
        int size = 0;
        for (int i = GROUP_BASE[g]; i < GROUP_BASE[g] + GROUP_LEN[g]; i++) size += conc[i];
        if (size % 3 == 1 || (size % 3 == 2 && pair_group >= 0)) return 0;
        if (size % 3 == 2) pair_group = g;
    }
    if (pair_group < 0) return 0;
    static Dec lists[4][MAX_DEC];
    int sizes[4];
    for (int g = 0; g < 4; g++) {
        if (g == pair_group) continue;
        if (!group_decs(conc, g, lists[g], &sizes[g])) return -1;
        if (!sizes[g]) return 0;
    }
    int work[NT];
    memcpy(work, conc, sizeof work);
    for (int p = GROUP_BASE[pair_group]; p < GROUP_BASE[pair_group] + GROUP_LEN[pair_group]; p++) {
        if (work[p] < 2) continue;
        work[p] -= 2;
        int ok = group_decs(work, pair_group, lists[pair_group], &sizes[pair_group]);
        work[p] += 2;
        if (!ok) return -1;
        for (int a = 0; a < sizes[0]; a++)
            for (int b = 0; b < sizes[1]; b++)
                for (int c = 0; c < sizes[2]; c++)
                    for (int d = 0; d < sizes[3]; d++) {
                        const Dec *parts[4] = {&lists[0][a], &lists[1][b], &lists[2][c], &lists[3][d]};
                        Arr base = {(signed char)p, -1, {{0}}};
                        int k = 0;
                        for (int g = 0; g < 4; g++)
                            for (int s = 0; s < parts[g]->n; s++) {
                                if (k >= 4) return -1;
                                base.sets[k++] = parts[g]->sets[s];
                            }
                        if (k + nmelds != 4) return -1;
                        int nconc = k;
                        for (int m = 0; m < nmelds; m++) base.sets[k++] = melds[m];
                        if (p == win) {
                            if (n >= MAX_ARR) return -1;
                            out[n++] = base;
                        }
                        for (int s = 0; s < nconc; s++) {
                            const TSet *set = &base.sets[s];
                            int holds = set->kind == CHOW ? (win >= set->first && win <= set->first + 2) : win == set->first;
                            int seen = 0;
                            for (int e = 0; e < s; e++)
                                if (base.sets[e].kind == set->kind && base.sets[e].first == set->first) seen = 1;
                            if (!holds || seen) continue;
                            if (n >= MAX_ARR) return -1;
                            out[n] = base;
                            out[n++].win_in = (signed char)s;
                        }
                    }
    }
    return n;
}

/* ---- one reading of the hand (scoring/wuhu.py: _read, _jiao_items) ----------------- */

/* An item's detail is kept as a kind plus its numbers and written out only for the
 * reading that wins (write_detail), in the words of scoring/wuhu.py. */
enum {
    D_DRAW,          /* di_fan: 点炮 discard / 自摸 self-draw [, 压档 ya]; a = self-draw, b = ya */
    D_ZHI,           /* zhi_fan: {zhi}支[ + 压{ya}] × {factor}; a = zhi, b = ya, c = self-draw */
    D_ZUI_ZI,        /* 嘴子[ × {a} self-draw]; a = multiplier, -1 when not doubled */
    D_KONG,          /* the kong's notation; a = index of the set */
    D_DEALER,        /* winner is dealer: one more 底番 */
    D_JIAO_SOURCE,   /* {pattern} is 交 by itself; a = pattern */
    D_JIAO_PAIR,     /* two 嘴子: {a} + {b} */
    D_COUNTED,       /* 嘴子 counted in 交 */
    D_BEYOND,        /* 嘴子 beyond 交 */
    D_JIAO_SELF,     /* self-draw with 交 */
};
typedef struct { int label, kind, a, b, c; long value; } Item; /* label: L_* or N_FIXED + pattern */
typedef struct {
    long value, dealer_extra;
    int ya, nitems, npat;
    Item items[MAX_ITEMS];
    int pat[MAX_PAT + 1]; /* pattern index; -1 is 交 */
} Reading;
typedef struct { int self_draw, dealer, dealer_seat, after_kong, heavenly, earthly; } Ctx;

static void add_item(Reading *r, int label, long value, int kind, int a, int b, int c)
{
    /* a reading has at most 2 items per pattern plus 4, and a plan at most one pattern
     * per compiled detector (11): MAX_ITEMS is never reached; guarded anyway */
    if (r->nitems >= MAX_ITEMS) return;
    r->items[r->nitems++] = (Item){label, kind, a, b, c, value};
}

static int ya_dang_points(const Plan *P, const Arr *a, int win, int nwaits)
{
    if (nwaits != 1 || a->win_in < 0) return 0;
    const TSet *s = &a->sets[(int)a->win_in];
    if (s->kind != CHOW || s->declared) return 0;
    int middle = win == s->first + 1;
    int edge = (win == s->first + 2 && s->first % 9 == 0) || (win == s->first && s->first % 9 == 6);
    return middle || (P->opt_edge && edge) ? win % 9 + 1 : 0;
}

static void read_arrangement(const Plan *P, const Arr *a, const Ctx *x, const int *counts, int zhi, int win, int nwaits, Reading *r)
{
    Cand cand = {P, a, counts, x->after_kong, x->heavenly, x->earthly};
    int found[MAX_PAT], nfound = 0, sources[MAX_PAT], nsources = 0, zui[MAX_PAT], nzui = 0;
    int ya = ya_dang_points(P, a, win, nwaits);
    r->ya = ya;
    r->nitems = 0;
    r->dealer_extra = 0;
    for (int k = 0; k < P->npat; k++)
        if (P->pat[k].detect(&cand)) found[nfound++] = k;
    for (int f = 0; f < nfound; f++) {
        if (P->pat[found[f]].jiao_role) sources[nsources++] = found[f];
        else zui[nzui++] = found[f];
    }
    if (P->gang_hou_kai_hua >= 0 && ya && P->opt_gang_ya_jiao) {
        for (int z = 0; z < nzui; z++)
            if (zui[z] == P->gang_hou_kai_hua) {
                memmove(zui + z, zui + z + 1, sizeof(int) * (nzui - z - 1));
                nzui--;
                sources[nsources++] = P->gang_hou_kai_hua;
                break;
            }
    }
    int jiao = nsources || nzui >= 2, draw = x->self_draw ? 1 : 0;
    if (jiao) {
        int counted = P->opt_jiao_each ? nsources : (nsources ? 1 : 0), first_extra = 0;
        for (int s = 0; s < counted; s++) add_item(r, L_JIAO, P->jiao, D_JIAO_SOURCE, sources[s], 0, 0);
        if (nzui >= 2 && (!nsources || P->opt_jiao_each)) {
            add_item(r, L_JIAO, P->jiao, D_JIAO_PAIR, zui[0], zui[1], 0);
            add_item(r, N_FIXED + zui[0], 0, D_COUNTED, 0, 0, 0);
            add_item(r, N_FIXED + zui[1], 0, D_COUNTED, 0, 0, 0);
            first_extra = 2;
        }
        for (int z = first_extra; z < nzui; z++) add_item(r, N_FIXED + zui[z], P->jiao_extra, D_BEYOND, 0, 0, 0);
        if (x->self_draw) add_item(r, L_JIAO_SELF_DRAW, P->jiao_self_draw, D_JIAO_SELF, 0, 0, 0);
    } else {
        long di = P->di_fan[draw * 2 + (ya ? 1 : 0)];
        long num = P->factor_num[draw], den = P->factor_den[draw];
        long zhi_fan = (2 * (zhi + ya) * num + den) / (2 * den); /* 四舍五入, exact */
        add_item(r, L_DI_FAN, di, D_DRAW, draw, ya, 0);
        add_item(r, L_ZHI_FAN, zhi_fan, D_ZHI, zhi, ya, draw);
        for (int z = 0; z < nzui; z++) {
            int doubled = x->self_draw && zui[z] != P->gang_hou_kai_hua;
            long mult = doubled ? P->zui_zi_mult : 1;
            add_item(r, N_FIXED + zui[z], P->zui_zi * mult, D_ZUI_ZI, doubled ? (int)mult : -1, 0, 0);
        }
        for (int s = 0; s < 4; s++) {
            const TSet *set = &a->sets[s];
            if (set->kind != KONG) continue;
            if (set->concealed) add_item(r, L_AN_GANG, P->an_gang, D_KONG, s, 0, 0);
            else add_item(r, L_MING_GANG, P->ming_gang, D_KONG, s, 0, 0);
        }
        if (x->dealer) add_item(r, L_DEALER, di, D_DEALER, 0, 0, 0);
        r->dealer_extra = P->opt_dealer_extra && x->dealer_seat >= 0 ? di : 0;
    }
    r->npat = 0;
    for (int f = 0; f < nfound; f++) r->pat[r->npat++] = found[f];
    if (jiao) r->pat[r->npat++] = -1;
    r->value = 0;
    for (int i = 0; i < r->nitems; i++) r->value += r->items[i].value;
}

/* ---- JSON text ------------------------------------------------------------------------ */

typedef struct { char *p; size_t len, cap; int failed; } Buf;

static void put(Buf *b, const char *s, size_t n)
{
    if (b->failed) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 2048;
        while (cap < b->len + n) cap *= 2;
        char *p = PyMem_Realloc(b->p, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->p = p, b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

static void puts_(Buf *b, const char *s) { put(b, s, strlen(s)); }

static void put_long(Buf *b, long v)
{
    char text[24];
    int n = 24;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do text[--n] = (char)('0' + u % 10), u /= 10; while (u);
    if (v < 0) text[--n] = '-';
    put(b, text + n, (size_t)(24 - n));
}

static const char SUIT_LETTER[4] = {'m', 'p', 's', 'z'};

/* format_tiles of a count array: sorted, one suit letter per run (123m55p7z). */
static size_t format_counts(const int *counts, char *out)
{
    size_t n = 0;
    for (int g = 0; g < 4; g++) {
        int any = 0;
        for (int i = 0; i < GROUP_LEN[g]; i++)
            for (int k = 0; k < counts[GROUP_BASE[g] + i]; k++) out[n++] = (char)('1' + i), any = 1;
        if (any) out[n++] = SUIT_LETTER[g];
    }
    out[n] = 0;
    return n;
}

/* TileSet.notation(): 345m, 555p; a declared meld [555p] or [5555p concealed]. */
static void put_set(Buf *b, const TSet *s)
{
    char text[16];
    int n = 0, digit = '1' + s->first % 9;
    if (s->declared) text[n++] = '[';
    if (s->kind == CHOW) text[n++] = (char)digit, text[n++] = (char)(digit + 1), text[n++] = (char)(digit + 2);
    else
        for (int k = s->kind == KONG ? 4 : 3; k > 0; k--) text[n++] = (char)digit;
    text[n++] = SUIT_LETTER[s->first / 9];
    put(b, text, (size_t)n);
    if (s->declared) puts_(b, s->concealed ? " concealed]" : "]");
}

static void put_tile(Buf *b, int t)
{
    char text[2] = {(char)('1' + t % 9), SUIT_LETTER[t / 9]};
    put(b, text, 2);
}

/* p / q written out exactly, as Python's Decimal prints it: q divides a power of ten
 * (the factor came from a decimal), so the long division ends, with no trailing zero. */
static void put_decimal(Buf *b, long p, long q)
{
    char digits[24];
    int n = 0;
    long r = p % q;
    put_long(b, p / q);
    while (r && n < 24) r *= 10, digits[n++] = (char)('0' + r / q), r %= q;
    if (n) puts_(b, "."), put(b, digits, (size_t)n);
}

static void write_detail(Buf *b, const Plan *P, const Arr *arr, const Item *it)
{
    switch (it->kind) {
    case D_DRAW:
        puts_(b, it->a ? "自摸 self-draw" : "点炮 discard");
        if (it->b) puts_(b, ", 压档 "), put_long(b, it->b);
        break;
    case D_ZHI: { /* scoring/wuhu.py zhi_fan_detail: (9 + 2) × 0.4 = 4.4 → 4 */
        long n = (long)it->a + it->b, num = P->factor_num[it->c], den = P->factor_den[it->c];
        if (it->b) puts_(b, "("), put_long(b, it->a), puts_(b, " + "), put_long(b, it->b), puts_(b, ")");
        else put_long(b, it->a);
        puts_(b, " × "), puts_(b, P->factor_text[it->c]), puts_(b, " = ");
        put_decimal(b, n * num, den);
        if ((n * num) % den || (n * num) / den != it->value) puts_(b, " → "), put_long(b, it->value);
        break;
    }
    case D_ZUI_ZI:
        puts_(b, "嘴子");
        if (it->a >= 0) puts_(b, " × "), put_long(b, it->a), puts_(b, " self-draw");
        break;
    case D_KONG: put_set(b, &arr->sets[it->a]); break;
    case D_DEALER: puts_(b, "winner is dealer: one more 底番"); break;
    case D_JIAO_SOURCE: puts_(b, P->pat[it->a].zh), puts_(b, " is 交 by itself"); break;
    case D_JIAO_PAIR: puts_(b, "two 嘴子: "), puts_(b, P->pat[it->a].zh), puts_(b, " + "), puts_(b, P->pat[it->b].zh); break;
    case D_COUNTED: puts_(b, "嘴子 counted in 交"); break;
    case D_BEYOND: puts_(b, "嘴子 beyond 交"); break;
    case D_JIAO_SELF: puts_(b, "self-draw with 交"); break;
    }
}

/* ---- parsing the plain mpsz notation ------------------------------------------------------ */

/* Tiles of `text` written as plain runs (123m45p7z), at most `max`; -1 for anything else. */
static int parse_plain(PyObject *obj, int *tiles, int max)
{
    Py_ssize_t len;
    if (!PyUnicode_Check(obj) || !PyUnicode_IS_ASCII(obj)) return -1;
    const char *s = PyUnicode_AsUTF8AndSize(obj, &len);
    if (!s || len > 200) return -1;
    int n = 0, pending = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        char ch = s[i];
        if (ch >= '1' && ch <= '9') {
            pending++;
            continue;
        }
        int g = ch == 'm' ? 0 : ch == 'p' ? 1 : ch == 's' ? 2 : ch == 'z' ? 3 : -1;
        if (g < 0 || !pending) return -1;
        for (Py_ssize_t j = i - pending; j < i; j++) {
            int number = s[j] - '0';
            if ((g == 3 && number > 7) || n >= max) return -1;
            tiles[n++] = GROUP_BASE[g] + number - 1;
        }
        pending = 0;
    }
    return pending ? -1 : n;
}

static int seat_index(PyObject *obj)
{
    if (obj == Py_None) return -1;
    if (!PyUnicode_Check(obj)) return -2;
    for (int i = 0; i < 3; i++)
        if (PyUnicode_CompareWithASCIIString(obj, SEAT_NAMES[i]) == 0) return i;
    return -2;
}

/* A --meld / --concealed-kong text as a declared set; 0 if it is not a pung or kong. */
static int parse_meld(PyObject *obj, int concealed, TSet *out)
{
    int tiles[5];
    int n = parse_plain(obj, tiles, 5);
    if (n < 3 || n > 4) return 0;
    for (int i = 1; i < n; i++)
        if (tiles[i] != tiles[0]) return 0; /* a chow, or a mixture: the Python path decides */
    if (concealed && n != 4) return 0;
    *out = (TSet){n == 4 ? KONG : PUNG, (signed char)tiles[0], 1, (signed char)concealed};
    return 1;
}

/* ---- Plan.score -------------------------------------------------------------------------- */

static PyObject *decline(void) { Py_RETURN_NONE; }

static PyObject *Plan_score(Plan *P, PyObject *key)
{
    if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) != P->key_len) return decline();
    PyObject *f[N_FIELDS];
    for (int i = 0; i < N_FIELDS; i++) f[i] = PyTuple_GET_ITEM(key, P->field_at[i]);
    PyObject *hand = f[F_HAND], *win_text = f[F_WIN], *melds = f[F_MELDS], *kongs = f[F_KONGS];
    /* a flag this file does not implement (抢杠, Pujiang's facts, any new one) is the Python path's */
    for (int i = 0; i < P->nabsent; i++) {
        PyObject *v = PyTuple_GET_ITEM(key, P->absent_at[i]), *d = P->absent_default[i];
        if (v == d) continue;
        if (Py_TYPE(v) != Py_TYPE(d)) return decline();
        int same = PyObject_RichCompareBool(v, d, Py_EQ);
        if (same != 1) {
            if (same < 0) PyErr_Clear();
            return decline();
        }
    }
    int flags[5];
    const int flag_fields[5] = {F_SELF_DRAW, F_DEALER, F_AFTER_KONG, F_HEAVENLY, F_EARTHLY};
    for (int i = 0; i < 5; i++) {
        PyObject *v = f[flag_fields[i]];
        if (v != Py_True && v != Py_False) return decline();
        flags[i] = v == Py_True;
    }
    int self_draw = flags[0], dealer = flags[1], after_kong = flags[2], heavenly = flags[3], earthly = flags[4];
    int dealer_seat = seat_index(f[F_DEALER_SEAT]), discarder = seat_index(f[F_DISCARDER]);
    if (dealer_seat == -2 || discarder == -2) return decline();
    int by_discard = discarder >= 0;
    if ((heavenly && earthly) || (self_draw && by_discard) || (after_kong && by_discard) ||
        (heavenly && by_discard) || (dealer && dealer_seat >= 0))
        return decline();

    /* the hand: build_hand() and check_tiles() */
    int conc[MAX_TILES + 1], nconc = parse_plain(hand, conc, MAX_TILES + 1);
    if (nconc <= 0 || !PyTuple_Check(melds) || !PyTuple_Check(kongs)) return decline();
    Py_ssize_t nm = PyTuple_GET_SIZE(melds), nk = PyTuple_GET_SIZE(kongs);
    if (nm + nk > 4 || nconc != 14 - 3 * (int)(nm + nk)) return decline();
    TSet meld_sets[4];
    int nmelds = 0, has_kong = 0;
    for (Py_ssize_t i = 0; i < nm + nk; i++) {
        PyObject *text = i < nm ? PyTuple_GET_ITEM(melds, i) : PyTuple_GET_ITEM(kongs, i - nm);
        if (!parse_meld(text, i >= nm, &meld_sets[nmelds])) return decline();
        has_kong |= meld_sets[nmelds++].kind == KONG;
    }
    int win;
    if (win_text == Py_None) win = conc[nconc - 1];
    else if (parse_plain(win_text, &win, 1) != 1) return decline();
    int counts[NT] = {0}, ccounts[NT] = {0}, in_hand = 0;
    for (int i = 0; i < nconc; i++) counts[conc[i]]++, ccounts[conc[i]]++, in_hand |= conc[i] == win;
    for (int m = 0; m < nmelds; m++) counts[(int)meld_sets[m].first] += meld_sets[m].kind == KONG ? 4 : 3;
    if (!in_hand) return decline();
    for (int t = 0; t < NT; t++)
        if (counts[t] > 4 || (counts[t] && !P->allowed[t])) return decline();
    if (after_kong && !has_kong) return decline();
    self_draw = self_draw || after_kong || heavenly;

    /* score(): 八支, then the shape */
    int zhi = 0;
    for (int g = 0; g < 3; g++) {
        int size = 0;
        for (int t = g * 9; t < g * 9 + 9; t++) size += counts[t];
        if (size > zhi) zhi = size;
    }
    if (zhi < P->min_zhi) return Py_BuildValue("(si)", "no_ba_zhi", zhi);
    static Arr arrs[MAX_ARR];
    int narr = arrangements(ccounts, meld_sets, nmelds, win, arrs);
    if (narr < 0) return decline();
    if (narr == 0) return Py_BuildValue("(si)", "not_a_winning_hand", zhi);
    int c13[NT], held[NT], waits[NT];
    memcpy(c13, ccounts, sizeof c13);
    memcpy(held, counts, sizeof held);
    c13[win]--, held[win]--;
    int nwaits = find_waits(c13, held, waits);

    Ctx x = {self_draw, dealer, dealer_seat, after_kong, heavenly, earthly};
    static Reading readings[2];
    int best_slot = 0, best_index = 0;
    for (int a = 0; a < narr; a++) { /* the first of equal values wins, as max() does */
        Reading *r = &readings[a ? 1 - best_slot : 0];
        read_arrangement(P, &arrs[a], &x, counts, zhi, win, nwaits, r);
        if (a && r->value > readings[best_slot].value) best_slot = 1 - best_slot, best_index = a;
    }
    const Reading *best = &readings[best_slot];
    long pays[3] = {best->value, best->value, best->value};
    if (best->dealer_extra && dealer_seat >= 0) pays[dealer_seat] += best->dealer_extra;
    long total = pays[0] + pays[1] + pays[2];

    /* the text of ScoreResult.to_dict(), as json.dumps writes it, after its "{" */
    static Buf b; /* reused: it grows to the longest text once */
    char text[64];
    b.len = 0, b.failed = 0;
    const Arr *arr = &arrs[best_index];
    puts_(&b, P->prefix);
    put(&b, text, format_counts(ccounts, text));
    puts_(&b, "\", \"melds\": [");
    for (int m = 0; m < nmelds; m++) {
        TSet tiles = meld_sets[m];
        tiles.declared = 0; /* Meld.notation() has no brackets */
        puts_(&b, m ? ", {\"kind\": \"" : "{\"kind\": \"");
        puts_(&b, meld_sets[m].kind == KONG ? "kong" : "pung");
        puts_(&b, "\", \"tiles\": \"");
        put_set(&b, &tiles);
        puts_(&b, meld_sets[m].concealed ? "\", \"concealed\": true}" : "\", \"concealed\": false}");
    }
    puts_(&b, "], \"win\": \"");
    put_tile(&b, win);
    puts_(&b, "\"}, \"value\": ");
    put_long(&b, best->value);
    puts_(&b, ", \"items\": [");
    for (int i = 0; i < best->nitems; i++) { /* every Wuhu item has a detail */
        const Item *it = &best->items[i];
        if (i) puts_(&b, ", ");
        puts_(&b, it->label < N_FIXED ? P->label_head[it->label] : P->pat[it->label - N_FIXED].head);
        put_long(&b, it->value);
        puts_(&b, ", \"detail\": \"");
        write_detail(&b, P, arr, it);
        puts_(&b, "\"}");
    }
    puts_(&b, "], \"patterns\": [");
    for (int i = 0; i < best->npat; i++) {
        if (i) puts_(&b, ", ");
        puts_(&b, "\"");
        puts_(&b, best->pat[i] < 0 ? "jiao" : PyUnicode_AsUTF8(P->pat[best->pat[i]].key));
        puts_(&b, "\"");
    }
    puts_(&b, "], \"payments\": {");
    for (int s = 0; s < 3; s++) {
        puts_(&b, s ? ", \"" : "\""), puts_(&b, SEAT_NAMES[s]), puts_(&b, "\": ");
        put_long(&b, pays[s]);
    }
    puts_(&b, "}, \"total\": ");
    put_long(&b, total);
    puts_(&b, ", \"decomposition\": {\"pair\": \"");
    char pair[3] = {(char)('1' + arr->pair % 9), (char)('1' + arr->pair % 9), SUIT_LETTER[arr->pair / 9]};
    put(&b, pair, 3);
    puts_(&b, "\", \"sets\": [");
    for (int s = 0; s < 4; s++) {
        puts_(&b, s ? ", \"" : "\"");
        put_set(&b, &arr->sets[s]);
        puts_(&b, "\"");
    }
    puts_(&b, "], \"win_in\": \"");
    if (arr->win_in < 0) puts_(&b, "pair");
    else put_set(&b, &arr->sets[(int)arr->win_in]);
    puts_(&b, "\"}, \"zhi\": ");
    put_long(&b, zhi);
    puts_(&b, ", \"ya_dang\": ");
    put_long(&b, best->ya);
    puts_(&b, ", \"waits\": [");
    for (int w = 0; w < nwaits; w++) {
        puts_(&b, w ? ", \"" : "\"");
        put_tile(&b, waits[w]);
        puts_(&b, "\"");
    }
    puts_(&b, "]}");
    if (b.failed) return PyErr_NoMemory();

    PyObject *out = PyBytes_FromStringAndSize(b.p, (Py_ssize_t)b.len);
    PyObject *patterns = PyTuple_New(best->npat);
    if (!out || !patterns) {
        Py_XDECREF(out);
        Py_XDECREF(patterns);
        return NULL;
    }
    for (int i = 0; i < best->npat; i++) {
        PyObject *name = best->pat[i] < 0 ? P->jiao_key : P->pat[best->pat[i]].key;
        Py_INCREF(name);
        PyTuple_SET_ITEM(patterns, i, name);
    }
    return Py_BuildValue("(Nll(lll)N)", out, best->value, total, pays[0], pays[1], pays[2], patterns);
}

/* ---- Plan construction ------------------------------------------------------------------ */

static char *copy_text(PyObject *obj)
{
    Py_ssize_t len;
    const char *s = PyUnicode_Check(obj) ? PyUnicode_AsUTF8AndSize(obj, &len) : NULL;
    if (!s) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "expected a str");
        return NULL;
    }
    char *out = PyMem_Malloc((size_t)len + 1);
    if (!out) return (char *)PyErr_NoMemory();
    memcpy(out, s, (size_t)len + 1);
    return out;
}

static void Plan_dealloc(Plan *P)
{
    PyMem_Free(P->prefix);
    for (int i = 0; i < 2; i++) PyMem_Free(P->factor_text[i]);
    for (int i = 0; i < N_FIXED; i++) PyMem_Free(P->label_head[i]);
    for (int k = 0; k < P->npat; k++) {
        PyMem_Free(P->pat[k].head);
        PyMem_Free(P->pat[k].zh);
        Py_XDECREF(P->pat[k].key);
    }
    Py_XDECREF(P->jiao_key);
    for (int i = 0; i < P->nabsent; i++) Py_XDECREF(P->absent_default[i]);
    Py_TYPE(P)->tp_free((PyObject *)P);
}

/* Plan(allowed: bytes[34], numbers: tuple[int, ...], factor_texts: (str, str), prefix: str,
 *      label_heads: tuple[str × 7], patterns: tuple[(key, jiao_role, head, zh_escaped), ...],
 *      key_len: int, field_at: tuple[int × len(FIELDS)], absent: tuple[(index, default), ...])
 * key_len, field_at and absent describe the record key: its length, where each of FIELDS
 * sits in it, and the fields this file does not read, which must hold their default.
 * numbers: min_zhi, di_fan ×4 (discard, discard_ya_dang, self_draw, self_draw_ya_dang),
 *          factor num/den for discard then self_draw, zui_zi, zui_zi_self_draw_multiplier,
 *          jiao, jiao_extra_zui_zi, jiao_self_draw, ming_gang, an_gang, then the six options
 *          ya_dang_edge_wait, si_he_exposed_pung, shuang_ba_zhi_kongs_same_suit,
 *          gang_hou_ya_dang_jiao, jiao_count_each_source, dealer_payer_extra. */
static PyObject *Plan_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *allowed, *numbers, *factor_texts, *prefix, *labels, *patterns, *field_at, *absent;
    Py_ssize_t key_len;
    if (kwds && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Plan() takes positional arguments only");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "SO!O!UO!O!nO!O!", &allowed, &PyTuple_Type, &numbers, &PyTuple_Type, &factor_texts,
                          &prefix, &PyTuple_Type, &labels, &PyTuple_Type, &patterns, &key_len, &PyTuple_Type, &field_at,
                          &PyTuple_Type, &absent))
        return NULL;
    if (PyTuple_GET_SIZE(field_at) != N_FIELDS || PyTuple_GET_SIZE(absent) > MAX_ABSENT || key_len < 0) {
        PyErr_SetString(PyExc_ValueError, "Plan(): wrong key layout");
        return NULL;
    }
    if (PyBytes_GET_SIZE(allowed) != NT || PyTuple_GET_SIZE(numbers) != 22 || PyTuple_GET_SIZE(factor_texts) != 2 ||
        PyTuple_GET_SIZE(labels) != N_FIXED || PyTuple_GET_SIZE(patterns) > MAX_PAT) {
        PyErr_SetString(PyExc_ValueError, "Plan(): wrong sizes");
        return NULL;
    }
    Plan *P = (Plan *)type->tp_alloc(type, 0);
    if (!P) return NULL;
    P->gang_hou_kai_hua = -1;
    memcpy(P->allowed, PyBytes_AS_STRING(allowed), NT);
    long v[22];
    for (int i = 0; i < 22; i++) {
        v[i] = PyLong_AsLong(PyTuple_GET_ITEM(numbers, i));
        if (v[i] == -1 && PyErr_Occurred()) goto fail;
        if (v[i] < 0 || v[i] > 1000000000L) {
            PyErr_SetString(PyExc_ValueError, "Plan(): a number is out of range");
            goto fail;
        }
    }
    P->min_zhi = v[0];
    for (int i = 0; i < 4; i++) P->di_fan[i] = v[1 + i];
    P->factor_num[0] = v[5], P->factor_den[0] = v[6], P->factor_num[1] = v[7], P->factor_den[1] = v[8];
    if (!P->factor_den[0] || !P->factor_den[1] || P->factor_den[0] > 1000000 || P->factor_den[1] > 1000000) {
        PyErr_SetString(PyExc_ValueError, "Plan(): bad factor");
        goto fail;
    }
    P->zui_zi = v[9], P->zui_zi_mult = v[10], P->jiao = v[11], P->jiao_extra = v[12];
    P->jiao_self_draw = v[13], P->ming_gang = v[14], P->an_gang = v[15];
    P->opt_edge = v[16] != 0, P->opt_si_he_exposed = v[17] != 0, P->opt_kongs_same_suit = v[18] != 0;
    P->opt_gang_ya_jiao = v[19] != 0, P->opt_jiao_each = v[20] != 0, P->opt_dealer_extra = v[21] != 0;
    for (int i = 0; i < 2; i++)
        if (!(P->factor_text[i] = copy_text(PyTuple_GET_ITEM(factor_texts, i)))) goto fail;
    if (!(P->prefix = copy_text(prefix))) goto fail;
    for (int i = 0; i < N_FIXED; i++)
        if (!(P->label_head[i] = copy_text(PyTuple_GET_ITEM(labels, i)))) goto fail;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(patterns); k++) {
        PyObject *spec = PyTuple_GET_ITEM(patterns, k), *name;
        int jiao_role;
        Pattern *pat = &P->pat[k];
        if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != 4) {
            PyErr_SetString(PyExc_ValueError, "Plan(): a pattern is (key, jiao_role, head, zh)");
            goto fail;
        }
        name = PyTuple_GET_ITEM(spec, 0);
        jiao_role = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 1));
        if (!PyUnicode_Check(name) || jiao_role < 0) goto fail_spec;
        for (size_t d = 0; d < sizeof DETECTORS / sizeof *DETECTORS; d++)
            if (PyUnicode_CompareWithASCIIString(name, DETECTORS[d].name) == 0) pat->detect = DETECTORS[d].fn;
        if (!pat->detect) {
            PyErr_Format(PyExc_ValueError, "Plan(): no compiled detector for %R", name);
            goto fail;
        }
        pat->jiao_role = jiao_role;
        Py_INCREF(name);
        pat->key = name;
        P->npat = (int)k + 1;
        if (!(pat->head = copy_text(PyTuple_GET_ITEM(spec, 2))) || !(pat->zh = copy_text(PyTuple_GET_ITEM(spec, 3))))
            goto fail;
        if (PyUnicode_CompareWithASCIIString(name, "gang_hou_kai_hua") == 0) P->gang_hou_kai_hua = (int)k;
    }
    if (!(P->jiao_key = PyUnicode_InternFromString("jiao"))) goto fail;
    P->key_len = key_len;
    for (int i = 0; i < N_FIELDS; i++) {
        P->field_at[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(field_at, i));
        if (P->field_at[i] == -1 && PyErr_Occurred()) goto fail;
        if (P->field_at[i] < 0 || P->field_at[i] >= key_len) goto fail_layout;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(absent); i++) {
        PyObject *spec = PyTuple_GET_ITEM(absent, i);
        if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != 2) goto fail_layout;
        Py_ssize_t at = PyLong_AsSsize_t(PyTuple_GET_ITEM(spec, 0));
        if (at == -1 && PyErr_Occurred()) goto fail;
        if (at < 0 || at >= key_len) goto fail_layout;
        P->absent_at[i] = at;
        P->absent_default[i] = Py_NewRef(PyTuple_GET_ITEM(spec, 1));
        P->nabsent = (int)i + 1;
    }
    return (PyObject *)P;
fail_layout:
    PyErr_SetString(PyExc_ValueError, "Plan(): a key index is out of range");
    goto fail;
fail_spec:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Plan(): bad pattern");
fail:
    Py_DECREF(P);
    return NULL;
}

static PyMethodDef Plan_methods[] = {
    {"score", (PyCFunction)Plan_score, METH_O,
     "score(key) -> (body, value, total, payments, patterns) | (code, zhi) | None"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject PlanType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mahjong_calc._wuhu_accel.Plan",
    .tp_basicsize = sizeof(Plan),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One Wuhu ruleset, compiled for batch scoring.",
    .tp_new = Plan_new,
    .tp_dealloc = (destructor)Plan_dealloc,
    .tp_methods = Plan_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_wuhu_accel", "A compiled mirror of scoring/wuhu.py for batch scoring.", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__wuhu_accel(void)
{
    if (PyType_Ready(&PlanType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    PyObject *fields = PyTuple_New(N_FIELDS), *detectors = PyTuple_New(sizeof DETECTORS / sizeof *DETECTORS);
    if (!fields || !detectors) goto fail;
    for (int i = 0; i < N_FIELDS; i++) PyTuple_SET_ITEM(fields, i, PyUnicode_FromString(FIELDS[i]));
    for (size_t d = 0; d < sizeof DETECTORS / sizeof *DETECTORS; d++)
        PyTuple_SET_ITEM(detectors, d, PyUnicode_FromString(DETECTORS[d].name));
    Py_INCREF(&PlanType);
    if (PyModule_AddObject(m, "Plan", (PyObject *)&PlanType) < 0 || PyModule_AddObject(m, "FIELDS", fields) < 0 ||
        PyModule_AddObject(m, "DETECTORS", detectors) < 0)
        goto fail;
    return m;
fail:
    Py_XDECREF(fields);
    Py_XDECREF(detectors);
    Py_DECREF(m);
    return NULL;
}
