/*
 * discard_many.c - many best-discard searches in one call, shared by one or
 * more solvers: the deal's table (18 searches) in one crossing of the
 * binding, its threads started here instead of in the interpreter.
 *
 * Each solver takes the next search not yet taken (the order given), so a
 * single solver does them in order on one table: the values, discards and
 * node counts of that many pdd_best_discard calls. With more solvers the
 * calling thread searches with the first and one thread per other solver
 * with it; no interpreter lock is taken between two searches. The call
 * returns once every search is answered: it does not wait for a thread that
 * starts after the others took every search (a busy machine can take
 * milliseconds to run a new thread, which would cost a small table more
 * than its searches); such a thread finds nothing to take and ends.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "prefdd.h"
#include "search.h"

typedef struct discard_many {
    const pdd_position *positions;
    const uint32_t *pools;
    int count, mode;
    int32_t *codes;
    pdd_discard_result *results;
    atomic_int next;       /* the next search to take */
    atomic_int stopped;    /* a solver was stopped: search no more */
    atomic_int users;      /* the call and its threads still running: the last frees it */
    pthread_mutex_t lock;
    pthread_cond_t all_answered;
    int answered;          /* under lock */
} discard_many;

typedef struct discard_worker {
    discard_many *M;
    pdd_solver *S;
} discard_worker;

static void leave(discard_many *M)
{
    if (atomic_fetch_sub(&M->users, 1) == 1) {
        pthread_mutex_destroy(&M->lock);
        pthread_cond_destroy(&M->all_answered);
        free(M);
    }
}

/* Take searches until none is left. A search taken is answered (searched,
 * or PDD_ERR_STOPPED once a solver was stopped) before the next is taken;
 * once every search is taken the thread touches nothing of the caller's. */
static void take_searches(discard_many *M, pdd_solver *S)
{
    for (;;) {
        int i = atomic_fetch_add(&M->next, 1);
        if (i >= M->count)
            return;
        int err = PDD_ERR_STOPPED;
        if (!atomic_load(&M->stopped))
            err = pdd_best_discard(S, &M->positions[i], M->pools[i], M->mode, &M->results[i]);
        M->codes[i] = err;
        if (err == PDD_ERR_STOPPED)
            atomic_store(&M->stopped, 1);
        pthread_mutex_lock(&M->lock);
        if (++M->answered == M->count)
            pthread_cond_signal(&M->all_answered);
        pthread_mutex_unlock(&M->lock);
    }
}

static void *worker_main(void *arg)
{
    discard_worker W = *(discard_worker *)arg;
    free(arg);
    take_searches(W.M, W.S);
    leave(W.M);
    return NULL;
}

/* Start a detached thread searching with S; 0 if it cannot be started (the
 * others then do its share). */
static int start_worker(discard_many *M, pdd_solver *S)
{
    discard_worker *W = malloc(sizeof *W);
    if (!W)
        return 0;
    *W = (discard_worker){ M, S };
    atomic_fetch_add(&M->users, 1);
    pthread_t thread;
    pthread_attr_t attr;
    int ok = pthread_attr_init(&attr) == 0;
    ok = ok && pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0
            && pthread_create(&thread, &attr, worker_main, W) == 0;
    pthread_attr_destroy(&attr);
    if (!ok) {
        free(W);
        atomic_fetch_sub(&M->users, 1);   /* the call still holds it */
    }
    return ok;
}

static int check_solvers(pdd_solver *const *solvers, int solver_count)
{
    if (solver_count < 1 || solver_count > PDD_MAX_SOLVERS)
        return PDD_ERR_SOLVERS;
    for (int s = 0; s < solver_count; s++) {
        if (!solvers[s])
            return PDD_ERR_NULL;
        for (int t = 0; t < s; t++)
            if (solvers[t] == solvers[s])
                return PDD_ERR_SOLVERS;   /* two threads on one table would corrupt it */
    }
    return PDD_OK;
}

int pdd_best_discard_many(pdd_solver *const *solvers, int solver_count, const pdd_position *positions,
                          const uint32_t *pools, int count, int mode, int32_t *codes,
                          pdd_discard_result *results)
{
    if (!solvers || !codes || (count > 0 && (!positions || !pools || !results)))
        return PDD_ERR_NULL;
    if (count < 0)
        return PDD_ERR_COUNT;
    int err = check_solvers(solvers, solver_count);
    if (err != PDD_OK)
        return err;
    if (count == 0)
        return PDD_OK;
    discard_many *M = calloc(1, sizeof *M);
    if (!M)
        return PDD_ERR_NO_MEMORY;
    *M = (discard_many){ .positions = positions, .pools = pools, .count = count, .mode = mode,
                         .codes = codes, .results = results };
    atomic_init(&M->next, 0);
    atomic_init(&M->stopped, 0);
    atomic_init(&M->users, 1);
    pthread_mutex_init(&M->lock, NULL);
    pthread_cond_init(&M->all_answered, NULL);
    for (int s = 1; s < solver_count && s < count; s++)
        start_worker(M, solvers[s]);
    take_searches(M, solvers[0]);
    pthread_mutex_lock(&M->lock);
    while (M->answered < M->count)
        pthread_cond_wait(&M->all_answered, &M->lock);
    pthread_mutex_unlock(&M->lock);
    int stopped = atomic_load(&M->stopped);
    leave(M);
    return stopped ? PDD_ERR_STOPPED : PDD_OK;
}
