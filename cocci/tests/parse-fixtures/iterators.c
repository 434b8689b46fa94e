// SPDX-License-Identifier: GPL-2.0
/* statement iterators spatch does not know by name (cocci/macros.h) */
static int it_count;
static int it_limit __ro_after_init;

static void it_walk(struct sk_buff_head *q, struct drm_i915_private *i915,
		    spinlock_t *lock)
{
	intel_wakeref_t wakeref;

	scoped_guard(spinlock_irqsave, lock) {
		it_count++;
	}
	with_intel_runtime_pm(&i915->runtime_pm, wakeref) {
		it_limit = 2;
	}
}

int __init it_init(void)
{
	it_limit = 1;
	return 0;
}
