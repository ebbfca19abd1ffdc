/*
 * canonical.h - the canonical naming of a position's suits (canonical.c).
 */
#ifndef PREFDD_CANONICAL_H
#define PREFDD_CANONICAL_H

#include "prefdd.h"

/* suit_to[s] = the place of suit s in the canonical order. */
void canonical_suits(const pdd_position *p, int suit_to[4]);
/* A card mask with its suits renamed by suit_to. */
uint32_t canonical_mask(uint32_t mask, const int suit_to[4]);

#endif
