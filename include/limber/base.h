// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @defgroup base Base: export macros, result codes, log and assert hooks
/// @{

#include <stdbool.h>
#include <stdint.h>

#if defined(_WIN32) && defined(LB_BUILD_DLL)
#define LB_API __declspec(dllexport)
#elif defined(_WIN32) && defined(LB_DLL)
#define LB_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define LB_API __attribute__((visibility("default")))
#else
#define LB_API
#endif

#ifdef __cplusplus
#define LB_LITERAL(T) T
#define LB_EXTERN_C_BEGIN extern "C" {
#define LB_EXTERN_C_END }
#else
/// Compound literal that also compiles as C++ (brace init there).
#define LB_LITERAL(T) (T)
#define LB_EXTERN_C_BEGIN
#define LB_EXTERN_C_END
#endif

#define LB_INLINE static inline

/// Library version.
#define LB_VERSION_MAJOR 0
#define LB_VERSION_MINOR 1
#define LB_VERSION_PATCH 0

/// Marks a def struct as filled by its lbDefault*Def() function.
#define LB_SECRET_COOKIE 1152023

/// "No bone / no index".
#define LB_NULL_INDEX (-1)

/// X-macro table of result codes: one place makes the enum and the messages.
#define LB_RESULT_TABLE(X)                                                                                   \
	X(lb_ok, "ok")                                                                                           \
	X(lb_errorInvalidArgument, "invalid argument")                                                           \
	X(lb_errorNullPointer, "a required pointer is NULL")                                                     \
	X(lb_errorNonFinite, "a NaN or infinite value was given")                                                \
	X(lb_errorDefNotInitialized, "def not initialised with its lbDefault*Def() function")                     \
	X(lb_errorOutOfMemory, "out of memory")                                                                  \
	X(lb_errorCapacity, "a fixed capacity was exceeded")                                                     \
	X(lb_errorBoneCount, "bone count is zero, negative or above LB_MAX_BONES")                              \
	X(lb_errorEmptyName, "a bone has an empty or NULL name")                                                 \
	X(lb_errorNameTooLong, "a bone name is longer than LB_MAX_NAME - 1 characters")                          \
	X(lb_errorDuplicateName, "two bones share a name")                                                       \
	X(lb_errorParentOutOfRange, "a parent index is outside [-1, count)")                                     \
	X(lb_errorParentOrder, "a parent comes after its child (parents must come before children)")             \
	X(lb_errorCycle, "the parent links form a cycle")                                                        \
	X(lb_errorInvalidTransform, "a rest transform is non-finite, has a non-unit rotation or a zero scale")   \
	X(lb_errorBoneNotFound, "no bone has that name or index")                                                \
	X(lb_errorMissingRole, "a required humanoid role could not be mapped")                                   \
	X(lb_errorDegenerate, "degenerate geometry (zero length, collinear or zero-area input)")                 \
	X(lb_errorSkeletonMismatch, "the pose or map does not belong to this skeleton")                          \
	X(lb_errorFileNotFound, "file not found or not readable")                                                \
	X(lb_errorFileFormat, "malformed or unsupported file")                                                   \
	X(lb_errorNoSkeleton, "the file holds no skeleton")                                                      \
	X(lb_errorNotHumanoid, "the skeleton is not a humanoid")                                                 \
	X(lb_errorParse, "parse error")                                                                          \
	X(lb_errorUnsupported, "unsupported operation or option")                                                \
	X(lb_errorNoDisplay, "no display or rendering context is available")                                     \
	X(lb_errorIo, "input/output error")

/// Result codes. `lb_ok` is 0; every other value is an error with a message from lbResultString().
typedef enum lbResult
{
#define LB_RESULT_ENUM(name, msg) name,
	LB_RESULT_TABLE(LB_RESULT_ENUM)
#undef LB_RESULT_ENUM
		lb_resultCount
} lbResult;

/// Log severity passed to the log hook.
typedef enum lbLogLevel
{
	lb_logError = 0,
	lb_logWarning = 1,
	lb_logInfo = 2,
} lbLogLevel;

LB_EXTERN_C_BEGIN

/// Human-readable message of a result code; never NULL (unknown codes give "unknown result").
LB_API const char* lbResultString(lbResult result);

/// Log hook: receives level, result code and a message with details (e.g. the offending bone name).
typedef void lbLogFcn(lbLogLevel level, lbResult code, const char* message, void* userContext);

/// Installs the process-wide log hook. NULL makes the library silent. The default writes to stderr.
/// Not thread-safe against concurrent logging; set it once at start-up.
LB_API void lbSetLogFcn(lbLogFcn* fcn, void* userContext);

/// Assert hook for internal invariants only (library bugs, never user input). Return 1 to trap.
typedef int lbAssertFcn(const char* condition, const char* fileName, int lineNumber);

/// Installs the assert hook (debug builds or LB_ENABLE_ASSERT). NULL restores the default.
LB_API void lbSetAssertFcn(lbAssertFcn* fcn);

/// Reports an error through the log hook with printf-style details and returns `code` for chaining.
LB_API lbResult lbReport(lbResult code, const char* format, ...)
#if defined(__GNUC__) || defined(__clang__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/// Reports a warning through the log hook (printf-style).
LB_API void lbWarn(lbResult code, const char* format, ...)
#if defined(__GNUC__) || defined(__clang__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/// Internal: called by LB_ASSERT.
LB_API int lbInternalAssert(const char* condition, const char* fileName, int lineNumber);

LB_EXTERN_C_END

#if !defined(NDEBUG) || defined(LB_ENABLE_ASSERT)
#if defined(__GNUC__) || defined(__clang__)
#define LB_BREAKPOINT __builtin_trap()
#else
#define LB_BREAKPOINT ((void)0)
#endif
/// Internal invariant check (never for user input). Calls the assert hook; traps if it returns 1.
#define LB_ASSERT(c)                                                                                         \
	do                                                                                                       \
	{                                                                                                        \
		if (!(c) && lbInternalAssert(#c, __FILE__, (int)__LINE__))                                           \
			LB_BREAKPOINT;                                                                                   \
	} while (0)
#else
#define LB_ASSERT(c) ((void)0)
#endif

/// @}
