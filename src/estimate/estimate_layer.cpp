// The estimation layer (steady states, PEtab evaluation); its files are
// listed in CMakeLists.txt.
namespace odesens::estimate {}
