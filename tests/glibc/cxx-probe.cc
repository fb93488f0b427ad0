// SPDX-License-Identifier: GPL-2.0
// Built by a sysroot's C++ wrapper, TRIPLET-g++ (tests/glibc/sysroot-test.sh,
// debian/tests/build-with-sysroot).  std::chrono's clocks go through the
// sysroot's glibc; a thrown exception needs libgcc_s's unwinder, a thread
// libstdc++'s and glibc's threads.
//
//   cxx-probe CALLS    CALLS readings of steady_clock and system_clock,
//                      then one exception and one thread: "cxx: ok"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <unistd.h>

int main(int argc, char **argv)
{
	// sysroot-test.sh's mark, as sysroot-probe.c's: counted from here.
	getppid();
	long calls = argc == 2 ? std::strtol(argv[1], nullptr, 10) : 0;
	if (calls <= 0) {
		std::fprintf(stderr, "usage: cxx-probe CALLS (CALLS > 0)\n");
		return 2;
	}

	auto last = std::chrono::steady_clock::now();
	for (long i = 0; i < calls; i++) {
		auto now = std::chrono::steady_clock::now();
		if (now < last) {
			std::printf("cxx: steady_clock went back\n");
			return 1;
		}
		last = now;
		// After 2020-01-01: a realtime clock that reads anything sane.
		if (std::chrono::system_clock::now().time_since_epoch() < std::chrono::seconds(1577836800)) {
			std::printf("cxx: system_clock before 2020\n");
			return 1;
		}
	}

	try {
		throw std::runtime_error("thrown");
	} catch (const std::runtime_error &e) {
		std::thread worker([] { std::this_thread::sleep_for(std::chrono::milliseconds(1)); });
		worker.join();
		std::printf("cxx: ok\n");
		return 0;
	}
	std::printf("cxx: the exception was not caught\n");
	return 1;
}
