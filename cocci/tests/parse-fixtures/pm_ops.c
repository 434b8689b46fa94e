// SPDX-License-Identifier: GPL-2.0
/* dev_pm_ops initializers built by SET_*_PM_OPS (include/linux/pm.h) */
static int pm_calls;

static int pm_suspend(struct device *dev)
{
	pm_calls++;
	return 0;
}

static int pm_resume(struct device *dev)
{
	return 0;
}

static const struct dev_pm_ops pm_table = {
	SET_SYSTEM_SLEEP_PM_OPS(pm_suspend, pm_resume)
	SET_RUNTIME_PM_OPS(pm_suspend, pm_resume, NULL)
};

static int __init pm_setup(void)
{
	pm_calls = 0;
	return 0;
}
