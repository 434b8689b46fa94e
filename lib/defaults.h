/* SPDX-License-Identifier: GPL-2.0 */
/*
 * defaults.h - the campaign's tunable defaults, in one place.  The
 * Makefile and the scripts pass an option only when the user set one, so
 * these are the values a plain run gets.
 */
#ifndef RO_DEFAULTS_H
#define RO_DEFAULTS_H

/* Conversions built and booted together in one validation batch. */
#define DEFAULT_BATCH		128
/* At most this many variables in one queued patch. */
#define DEFAULT_MAX_VARS	8

#endif
