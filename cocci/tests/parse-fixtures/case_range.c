// SPDX-License-Identifier: GPL-2.0
/*
 * A case range without spaces (arch/mips/alchemy/common/clock.c,
 * drivers/staging/media/imx/imx-media-utils.c): spatch 1.1.1 cannot lex
 * A...B; run-facts.sh reads the file from a scratch copy with case A - B.
 */
enum { CR_FIRST, CR_MID, CR_LAST };

static int cr_kind;

static int cr_classify(int id)
{
	switch (id) {
	case CR_FIRST...CR_MID:
		cr_kind = 1;
		break;
	case CR_LAST:
		cr_kind = 2;
		break;
	}
	return cr_kind;
}
