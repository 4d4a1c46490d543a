// The OMPEval side of benchmarks/bench_ompeval.py: reads one request a line on stdin, answers one
// line on stdout. Built by that script against a local OMPEval checkout (never part of pql).
//
//   exact <range>|<range>|...           exact equity on one thread
//   mc <trials> <range>|<range>|...     Monte Carlo on one thread, stopped after <trials> hands
//   eval <count> <seed>                 7-card evaluations of <count> random hands
//   quit
//
// Answers: `<cpu seconds> <player 1's equity> <hands> <standard error>` for equity requests (the
// process's CPU time around start() and wait(), which includes OMPEval's worker thread), and
// `<cpu seconds> <checksum>` for evaluations (the hands are dealt before timing, by the same
// generator as pql's side, as card bytes 4 * rank + suit).
#include "omp/EquityCalculator.h"
#include "omp/HandEvaluator.h"

#include <cstdint>
#include <ctime>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

static double cpu_seconds()
{
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static std::vector<omp::CardRange> ranges_of(const std::string& text)
{
    std::vector<omp::CardRange> out;
    std::stringstream in(text);
    std::string one;
    while (std::getline(in, one, '|'))
        out.emplace_back(one);
    return out;
}

static void equity(const std::string& ranges, bool exact, uint64_t trials)
{
    omp::EquityCalculator calc;
    if (!exact)
        calc.setHandLimit(trials);
    double start = cpu_seconds();
    if (!calc.start(ranges_of(ranges), 0, 0, exact, exact ? 5e-5 : 0.0, nullptr, 0.2, 1)) {
        std::cout << "error cannot start" << std::endl;
        return;
    }
    calc.wait();
    double spent = cpu_seconds() - start;
    omp::EquityCalculator::Results r = calc.getResults();
    std::cout.precision(9);
    std::cout << spent << " " << r.equity[0] << " " << r.hands << " " << r.stdev << std::endl;
}

// splitmix64, as in pql's side: the same seed deals the same hands.
static uint64_t next(uint64_t& x)
{
    x += 0x9E3779B97F4A7C15ull;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void evaluations(uint64_t count, uint64_t seed)
{
    std::vector<uint8_t> cards(7 * count);
    uint64_t x = seed;
    for (uint64_t h = 0; h < count; ++h) {
        uint64_t used = 0;
        for (unsigned i = 0; i < 7;) {
            unsigned c = (unsigned)(next(x) % 52);
            if (used >> c & 1)
                continue;
            used |= 1ull << c;
            cards[7 * h + i++] = (uint8_t)c;
        }
    }
    omp::HandEvaluator eval;
    double start = cpu_seconds();
    uint64_t sum = 0;
    for (uint64_t h = 0; h < count; ++h) {
        const uint8_t* c = &cards[7 * h];
        omp::Hand hand = omp::Hand::empty() + c[0] + c[1] + c[2] + c[3] + c[4] + c[5] + c[6];
        sum += eval.evaluate(hand);
    }
    double spent = cpu_seconds() - start;
    std::cout.precision(9);
    std::cout << spent << " " << sum << std::endl;
}

int main()
{
    std::string line;
    while (std::getline(std::cin, line)) {
        std::stringstream in(line);
        std::string what;
        in >> what;
        if (what == "exact") {
            std::string ranges;
            in >> ranges;
            equity(ranges, true, 0);
        } else if (what == "mc") {
            uint64_t trials;
            std::string ranges;
            in >> trials >> ranges;
            equity(ranges, false, trials);
        } else if (what == "eval") {
            uint64_t count, seed;
            in >> count >> seed;
            evaluations(count, seed);
        } else if (what == "quit") {
            break;
        } else {
            std::cout << "error unknown request" << std::endl;
        }
    }
    return 0;
}
