#ifndef ROUTEREG_CPNG_SHIM_H
#define ROUTEREG_CPNG_SHIM_H
#include <png.h>
#include <string.h>

/* PNG_IMAGE_VERSION is a macro Swift imports, but png_image must be zeroed and versioned before use: one helper
   keeps that rule in C, where libpng documents it. */
static inline void routereg_png_image_gray(png_image *image, png_uint_32 width, png_uint_32 height) {
    memset(image, 0, sizeof(*image));
    image->version = PNG_IMAGE_VERSION;
    image->width = width;
    image->height = height;
    image->format = PNG_FORMAT_GRAY;
}
#endif
