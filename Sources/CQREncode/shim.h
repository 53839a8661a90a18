#ifndef ROUTEREG_CQRENCODE_SHIM_H
#define ROUTEREG_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
