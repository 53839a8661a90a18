#ifndef ROUTEREG_CLIBPQ_SHIM_H
#define ROUTEREG_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
