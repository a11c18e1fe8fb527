// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Result strings and the two process-wide hooks (log, assert). These hooks are the library's only
// mutable process state; they are documented in base.h and meant to be set once at start-up.
#include "limber/base.h"

#include <stdarg.h>
#include <stdio.h>

static const char* const lbResultStrings[] = {
#define LB_RESULT_STRING(name, msg) msg,
	LB_RESULT_TABLE(LB_RESULT_STRING)
#undef LB_RESULT_STRING
};

lbVersion lbGetVersion(void)
{
	return (lbVersion){ LB_VERSION_MAJOR, LB_VERSION_MINOR, LB_VERSION_PATCH };
}

const char* lbResultString(lbResult result)
{
	if ((int)result < 0 || (int)result >= (int)lb_resultCount)
		return "unknown result";
	return lbResultStrings[result];
}

static void lbDefaultLog(lbLogLevel level, lbResult code, const char* message, void* userContext)
{
	(void)userContext;
	const char* tag = level == lb_logError ? "error" : (level == lb_logWarning ? "warning" : "info");
	fprintf(stderr, "limber %s (%s): %s\n", tag, lbResultString(code), message);
}

static int lbDefaultAssert(const char* condition, const char* fileName, int lineNumber)
{
	fprintf(stderr, "limber assert: %s, %s:%d\n", condition, fileName, lineNumber);
	return 1;
}

static lbLogFcn* lbLogHook = lbDefaultLog;
static void* lbLogContext = NULL;
static lbAssertFcn* lbAssertHook = lbDefaultAssert;

void lbSetLogFcn(lbLogFcn* fcn, void* userContext)
{
	lbLogHook = fcn;
	lbLogContext = userContext;
}

void lbGetLogFcn(lbLogFcn** outFcn, void** outUserContext)
{
	if (outFcn)
		*outFcn = lbLogHook;
	if (outUserContext)
		*outUserContext = lbLogContext;
}

void lbSetAssertFcn(lbAssertFcn* fcn)
{
	lbAssertHook = fcn ? fcn : lbDefaultAssert;
}

int lbInternalAssert(const char* condition, const char* fileName, int lineNumber)
{
	return lbAssertHook(condition, fileName, lineNumber);
}

static void lbLogV(lbLogLevel level, lbResult code, const char* format, va_list args)
{
	if (!lbLogHook)
		return;
	char buffer[512];
	vsnprintf(buffer, sizeof buffer, format ? format : "", args);
	lbLogHook(level, code, buffer, lbLogContext);
}

lbResult lbReport(lbResult code, const char* format, ...)
{
	va_list args;
	va_start(args, format);
	lbLogV(lb_logError, code, format, args);
	va_end(args);
	return code;
}

void lbWarn(lbResult code, const char* format, ...)
{
	va_list args;
	va_start(args, format);
	lbLogV(lb_logWarning, code, format, args);
	va_end(args);
}
