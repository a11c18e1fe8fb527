// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Replays every file of the given directories through a fuzz target's entry point, built with the
// normal compiler: the committed corpus and the regression files run with every `make test`,
// with or without clang.
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static int lbReplayFile(const char* path)
{
	FILE* f = fopen(path, "rb");
	if (!f)
		return 0;
	static uint8_t buf[1 << 20];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	return 1;
}

int main(int argc, char** argv)
{
	int count = 0;
	for (int a = 1; a < argc; ++a)
	{
		DIR* d = opendir(argv[a]);
		if (!d)
		{
			count += lbReplayFile(argv[a]);
			continue;
		}
		struct dirent* e;
		while ((e = readdir(d)) != NULL)
		{
			if (e->d_name[0] == '.')
				continue;
			char path[4096];
			snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
			struct stat st;
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
				count += lbReplayFile(path);
		}
		closedir(d);
	}
	printf("replayed %d inputs\n", count);
	return count > 0 ? 0 : 1;
}
