// `npm run client:pack [-- DIR]`: writes the client package the server serves at
// /downloads/memory-hq-client.tgz to DIR (default: packages/client), as memory-hq-client-<version>.tgz,
// for installing without a running server (`npm install ./memory-hq-client-<version>.tgz`).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLIENT_PACKAGE_NAME, clientPackageDir, clientTarball } from "@/lib/client-package/build";

const dir = path.resolve(process.argv[2] ?? clientPackageDir());
const { version, tarball } = clientTarball();
mkdirSync(dir, { recursive: true });
const file = path.join(dir, `${CLIENT_PACKAGE_NAME}-${version}.tgz`);
writeFileSync(file, tarball);
console.log(file);
