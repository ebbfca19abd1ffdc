/*
 * endgame_oracle.c - what tables for the last tricks could save, at most.
 *
 * The core is compiled into this driver with PDD_ENDGAME_ORACLE, so the
 * search asks endgame_oracle() at every trick start: with k or fewer tricks
 * left, a second solver works out the exact value (its nodes not counted, its
 * time measured and subtracted) and the position is settled as a table for
 * those tricks would settle it. In a partition search the answer also fixes
 * cards: with -DORACLE_PROOF_MARKS those of the second solver's proof of the
 * value on the side of the target (the least any table could fix), else
 * every live card (what a table of relative ranks alone knows). What remains
 * is the search a perfect table of k tricks would leave.
 *
 * Built (the core's sources included first) and fed by
 * benchmarks/endgame_oracle.py. Reads jobs from stdin, one a
 * line (masks in hex):
 *   S h0 h1 h2 leader trump declarer objective          a solve
 *   D h0 h1 h2 pool leader trump declarer objective     a best discard
 * and for each k given on the command line (0 = no oracle) prints
 *   k jobs nodes oracle_calls total_ns oracle_ns digest
 * where digest sums every job's answers (value, and the discard found), so
 * that each k can be checked against k = 0.
 *
 * With -DORACLE_CALLGRIND, run under valgrind --tool=callgrind
 * --collect-atstart=no: only the searched solver's work is counted (the jobs,
 * not the set-up, and not the oracle's calls), so the instructions left do
 * not depend on the machine's load.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
/* The core's sources come before this file, as one translation unit:
 * endgame_oracle.py passes them with -include, from build_ffi.C_SOURCES. */
#include "search.h"

#ifdef ORACLE_CALLGRIND
#include <valgrind/callgrind.h>
#define COUNT_TOGGLE() CALLGRIND_TOGGLE_COLLECT
#else
#define COUNT_TOGGLE() ((void)0)
#endif

#if defined(__x86_64__)
#include <x86intrin.h>
static inline uint64_t ticks(void) { return __rdtsc(); }
#else
static inline uint64_t ticks(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
#endif

static pdd_solver *searched, *oracle;
static int oracle_k;
static uint64_t oracle_calls, oracle_ticks;

int endgame_oracle(pdd_solver *S, const board *b, int target, uint32_t *marks)
{
    (void)target;   /* read with ORACLE_PROOF_MARKS only */
    if (S != searched || b->tricks_left > oracle_k)
        return -1;
    COUNT_TOGGLE();
    uint64_t start = ticks();
    oracle->rules = S->rules;
    oracle->options = S->options;
    int v = search_value(oracle, b);
    *marks = live_cards(b);
#ifdef ORACLE_PROOF_MARKS
    if ((S->options & PDD_OPT_PARTITION) && S->rules.objective == PDD_TRICKS)
        search_marked(oracle, b, v >= target ? v : v + 1, marks);
#endif
    oracle_ticks += ticks() - start;
    oracle_calls++;
    COUNT_TOGGLE();
    return v;
}

typedef struct job {
    int discard;
    pdd_position p;
    uint32_t pool;
} job;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int read_jobs(job **out)
{
    int n = 0, cap = 1024;
    job *jobs = malloc(cap * sizeof *jobs);
    char kind;
    unsigned h0, h1, h2, pool = 0;
    int leader, trump, declarer, objective;
    while (scanf(" %c %x %x %x", &kind, &h0, &h1, &h2) == 4) {
        if (kind == 'D' && scanf("%x", &pool) != 1)
            break;
        if (scanf("%d %d %d %d", &leader, &trump, &declarer, &objective) != 4)
            break;
        if (n == cap)
            jobs = realloc(jobs, (cap *= 2) * sizeof *jobs);
        job *j = &jobs[n++];
        memset(j, 0, sizeof *j);
        j->discard = kind == 'D';
        j->p.hands[0] = h0, j->p.hands[1] = h1, j->p.hands[2] = h2;
        j->p.leader = leader, j->p.trump = trump, j->p.declarer = declarer;
        j->p.objective = objective;
        j->pool = pool;
    }
    *out = jobs;
    return n;
}

static uint64_t run(const job *j)
{
    if (j->discard) {
        pdd_discard_result r;
        if (pdd_best_discard(searched, &j->p, j->pool, 0, &r) != PDD_OK)
            exit(1);
        return (uint64_t)r.value * 1000003u + r.discards[0];
    }
    int v;
    if (pdd_solve(searched, &j->p, &v) != PDD_OK)
        exit(1);
    return (uint64_t)v;
}

int main(int argc, char **argv)
{
    job *jobs;
    int n = read_jobs(&jobs);
    for (int a = 1; a < argc; a++) {
        oracle_k = atoi(argv[a]);
        searched = pdd_new(0);
        oracle = pdd_new(0);
        oracle_calls = oracle_ticks = 0;
        uint64_t digest = 0, nodes = 0;
        double t0 = now_ns();
        uint64_t k0 = ticks();
        COUNT_TOGGLE();
        for (int i = 0; i < n; i++) {
            pdd_reset_stats(searched);
            digest = digest * 31 + run(&jobs[i]);
            pdd_stats st = {0};
            pdd_get_stats(searched, &st);
            nodes += st.nodes;
        }
        COUNT_TOGGLE();
        double total = now_ns() - t0;
        double per_tick = total / (double)(ticks() - k0);
        printf("%d %d %llu %llu %.0f %.0f %llu\n", oracle_k, n, (unsigned long long)nodes,
               (unsigned long long)oracle_calls, total, oracle_ticks * per_tick,
               (unsigned long long)digest);
        fflush(stdout);
        pdd_free(searched);
        pdd_free(oracle);
    }
    free(jobs);
    return 0;
}
