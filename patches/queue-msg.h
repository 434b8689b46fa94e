/* SPDX-License-Identifier: GPL-2.0 */
/*
 * queue-msg.h - what the files of the messages' prose share (their
 * entry points, patch_subject(), commit_msg() and cover_blurb(), are
 * queue-plan.h's):
 *   queue-msg.c    the subject, what a write could do, how it was tested,
 *                  and the commit message that holds them
 *   queue-why.c    why it is safe, each reason said once
 *   queue-notes.c  below the --- line: the writers and the validation
 *   queue-cover.c  the cover letter
 */
#ifndef QUEUE_MSG_H
#define QUEUE_MSG_H

#include <stddef.h>

#include "queue-plan.h"

/* 1 if V[I]'s name is the name of an earlier V[K] (an #ifdef variant). */
int var_seen(struct var **v, size_t i);
/* The number of names among V[0..N-1]. */
size_t var_nnames(struct var **v, size_t n);
/* "a, b and c", each name once; only those of level LEVEL if >= 0. */
void names_list(struct sb *s, struct var **v, size_t n, int level);

/* queue-why.c: why V[0..N-1] are safe to mark, one paragraph. */
void why_safe(struct sb *s, const struct plan_opts *o, struct var **v,
	      size_t n);

/* queue-notes.c: every writer of each variable, with the finder's verdict. */
void notes_writers(struct sb *s, const struct plan_opts *o,
		   struct var **v, size_t n);
/* queue-notes.c: the validation of each distinct (evidence, batch, config). */
void notes_validation(struct sb *s, const struct plan_opts *o,
		      struct var **v, size_t n);

#endif
