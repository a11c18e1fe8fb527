// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref base group.

/// @defgroup base Base: export macros, result codes, log and assert hooks
/// @{
///
/// Conventions every public header follows:
/// - Option structs: a `Def` creates or configures something (lbWorldDef, lbFootDef), an `Input`
///   changes with every call (lbFootSenseInput, lbTwoBoneIkInput). Both come from their
///   `lbDefault...()` function, which sets a cookie the calls check.
/// - Argument order: the object a function is named after first (`lbPose_*`, `lbHumanoid_*`),
///   then the skeleton before the humanoid map made for it, then inputs, then outputs (`out...`).
/// - Create or fail: `lbCreate<T>` returns the new object, or NULL (a pose with NULL arrays), never
///   a half-made one, and the reason goes once to the log hook; the creators that check their
///   input against other data (lbCreateSkeleton, lbCreateRun) also write the code to an optional
///   `lbResult* outResult`. Importing (lbImportRig) returns the code and writes the object through
///   an out pointer, NULL on failure; parsing a scenario (lbParseScenario, lbLoadScenario) returns
///   NULL with the message in the caller's buffer. `lbDestroy<T>` frees and accepts NULL.
/// - Thread-safety is stated on every public type. The library has no hidden state besides the
///   log, assert and allocator hooks, which are set once at start-up.

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Marks a declaration as part of the exported API: dllexport while building limber.dll, dllimport
/// for its users (define LB_DLL), default visibility on GCC and Clang (the rest is hidden).
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
/// Opens a block of C declarations: `extern "C" {` in C++, nothing in C.
#define LB_EXTERN_C_BEGIN extern "C" {
/// Closes a block opened by LB_EXTERN_C_BEGIN.
#define LB_EXTERN_C_END }
#else
/// Compound literal that also compiles as C++ (brace init there).
#define LB_LITERAL(T) (T)
/// Opens a block of C declarations: `extern "C" {` in C++, nothing in C.
#define LB_EXTERN_C_BEGIN
/// Closes a block opened by LB_EXTERN_C_BEGIN.
#define LB_EXTERN_C_END
#endif

/// Storage of the header-defined helpers (math.h): each translation unit gets its own copy.
#define LB_INLINE static inline

// printf-style checking of the reporting functions' format strings. MinGW's printf attribute means
// Microsoft's dialect; the library is built with MinGW's C99 printf (__USE_MINGW_ANSI_STDIO).
/// Lets the compiler check a printf-style call: argument `fmt` is the format, `args` the first value.
#if defined(__MINGW32__)
#define LB_PRINTF(fmt, args) __attribute__((format(gnu_printf, fmt, args)))
#elif defined(__GNUC__) || defined(__clang__)
#define LB_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define LB_PRINTF(fmt, args)
#endif

/// Library version, the only place it is defined (the build reads it from here). limber follows
/// semantic versioning: a major change may break the API, a minor one adds to it, a patch fixes.
/// This is the major number.
#define LB_VERSION_MAJOR 0
/// Minor version number (see LB_VERSION_MAJOR).
#define LB_VERSION_MINOR 3
/// Patch version number (see LB_VERSION_MAJOR).
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
/// Turns a row of LB_RESULT_TABLE into an enumerator (defined only inside this enum).
#define LB_RESULT_ENUM(name, msg) name,
	LB_RESULT_TABLE(LB_RESULT_ENUM)
#undef LB_RESULT_ENUM
		/// Number of result codes (not a result).
	lb_resultCount
} lbResult;

/// Log severity passed to the log hook.
typedef enum lbLogLevel
{
	/// An operation failed.
	lb_logError = 0,
	/// Something looks wrong, but the operation went on.
	lb_logWarning = 1,
	/// Information only; nothing went wrong.
	lb_logInfo = 2,
} lbLogLevel;

LB_EXTERN_C_BEGIN

/// A library version (semantic versioning).
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbVersion
{
	int major;    ///< incompatible API changes
	int minor;    ///< additions that keep the API compatible
	int revision; ///< fixes
} lbVersion;

/// The version of the library that is linked (compare with LB_VERSION_* to catch a header/library
/// mismatch). Thread-safe.
LB_API lbVersion lbGetVersion(void);

/// Allocation hook: returns `size` bytes aligned as malloc's memory is (any standard type), or NULL.
/// `userContext` is the pointer given to lbSetAllocator().
typedef void* lbAllocFcn(size_t size, void* userContext);

/// Free hook: releases a block returned by the matching lbAllocFcn; `size` is the size that was asked.
typedef void lbFreeFcn(void* memory, size_t size, void* userContext);

/// Installs the process-wide allocator used by every allocation the library makes (skeletons, poses,
/// worlds, scenes, imported rigs, scenario runs; solvers and per-frame stages allocate nothing).
/// Both NULL restores malloc and free. Larger alignments the library needs are carved out of the
/// hook's blocks, so the hook only has to give malloc's alignment. Each block remembers the hook
/// that made it and goes back to it, so changing the hook later is safe; still, set it once at
/// start-up, before other threads use the library (the setting itself is not synchronised).
/// Parsers the io layer calls (assimp, cJSON) allocate with their own allocators.
LB_API void lbSetAllocator(lbAllocFcn* allocFcn, lbFreeFcn* freeFcn, void* userContext);

/// Allocates `size` bytes through the allocator hook (aligned for any standard type); NULL when out
/// of memory. For code that extends limber and hands memory to it. Free with lbFree(). Thread-safe
/// if the hook is.
LB_API void* lbAlloc(size_t size);

/// Like lbAlloc() with the block zeroed.
LB_API void* lbAllocZeroed(size_t size);

/// Allocates `size` bytes aligned to `alignment` (a power of two) through the allocator hook.
LB_API void* lbAllocAligned(size_t size, size_t alignment);

/// Resizes a block from one of these functions (NULL allocates), keeping its contents up to the
/// smaller size and its alignment; on failure returns NULL and leaves the block as it was.
LB_API void* lbRealloc(void* memory, size_t size);

/// Frees a block from lbAlloc(), lbAllocZeroed(), lbAllocAligned() or lbRealloc(); NULL is ignored.
LB_API void lbFree(void* memory);

/// Human-readable message of a result code; never NULL (unknown codes give "unknown result").
LB_API const char* lbResultString(lbResult result);

/// Log hook: receives level, result code and a message with details (e.g. the offending bone name).
typedef void lbLogFcn(lbLogLevel level, lbResult code, const char* message, void* userContext);

/// Installs the process-wide log hook. NULL makes the library silent. The default writes to stderr.
/// Not thread-safe against concurrent logging; set it once at start-up.
LB_API void lbSetLogFcn(lbLogFcn* fcn, void* userContext);

/// The log hook and context installed now (the default hook when none was set; NULL when silenced),
/// so a caller can wrap it for a while and put it back. Either output may be NULL.
LB_API void lbGetLogFcn(lbLogFcn** outFcn, void** outUserContext);

/// Assert hook for internal invariants only (library bugs, never user input). Return 1 to trap.
typedef int lbAssertFcn(const char* condition, const char* fileName, int lineNumber);

/// Installs the assert hook (debug builds or LB_ENABLE_ASSERT). NULL restores the default.
LB_API void lbSetAssertFcn(lbAssertFcn* fcn);

/// Reports an error through the log hook with printf-style details and returns `code` for chaining.
LB_API lbResult lbReport(lbResult code, const char* format, ...) LB_PRINTF(2, 3);

/// Reports a warning through the log hook (printf-style).
LB_API void lbWarn(lbResult code, const char* format, ...) LB_PRINTF(2, 3);

/// Internal: called by LB_ASSERT.
LB_API int lbInternalAssert(const char* condition, const char* fileName, int lineNumber);

LB_EXTERN_C_END

#if !defined(NDEBUG) || defined(LB_ENABLE_ASSERT)
/// Stops a debug build where LB_ASSERT failed: a trap on GCC and Clang, nothing elsewhere.
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
