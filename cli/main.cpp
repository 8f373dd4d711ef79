#include <iostream>

#include "cli/app.hpp"

int main(int argc, char** argv) { return tco::cli::run_main(argc, argv, std::cout, std::cerr); }
