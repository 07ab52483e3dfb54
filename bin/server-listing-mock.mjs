#!/usr/bin/env node
// `server-listing-mock [flags]`: the mock from the installed package (the esbuild bundle
// built when the package is packed; no TypeScript loader at run time).
import '../dist/mock.mjs';
