// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Fuzz target: the scenario parser and the runner (parse, build, a few steps, the report). Rig
// files are not followed (the import target covers them); runs are cut to a few frames.
#include "limber/limber.h"
#include "limber/scenario.h"

#include "fuzz_reader.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	if (size > (1u << 20))
		return 0;
	lbSetLogFcn(lbQuiet, NULL);
	char* text = (char*)malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	char msg[512];
	lbScenario* s = lbParseScenario(text, NULL, msg, sizeof msg);
	free(text);
	if (!s)
		return 0;
	if (!s->rigFile[0])
	{
		// A fuzzer's budget is small: anything over 2 MB is refused by the runner itself. A world's
		// build time grows with its size (a 1600 m rocky heightfield at 1 m, 10 MB, took 40 s
		// sanitized), and every input must run in well under the fuzzer's timeout.
		s->memoryBudget = (size_t)2 << 20;
		s->frames = s->frames < 4 ? s->frames : 4;
		lbResult r;
		lbRun* run = lbCreateRun(s, &r);
		for (int k = 0; run && k < 4 && !lbRun_IsDone(run); ++k)
			lbRun_Step(run);
		if (run)
			lbFreeText(lbRun_ReportJson(run, false));
		lbDestroyRun(run);
	}
	lbDestroyScenario(s);
	return 0;
}
