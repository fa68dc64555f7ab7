# The files of the Debian packages `light` needs to build (headers, libraries, pkg-config and CMake
# files, fonts, the gazetteer), with their dependencies, minus what a GPU image already has (libc,
# libstdc++, ...) and what is not needed (Mesa, LLVM, ICU data, static libraries): -> /tmp/devfiles.txt.
import subprocess,re,os,sys
roots=["libgeos-dev","libutf8proc-dev","libre2-dev","libtcmalloc-minimal4","libopencv-core-dev","libopencv-imgproc-dev","libcairo2-dev","libpango1.0-dev","nlohmann-json3-dev","libcli11-dev","libtimezonemap-data","fonts-texgyre","fonts-oldstandard","fonts-ebgaramond","fonts-junicode","fonts-dejavu-core","fontconfig-config","libgloo-dev"]
skip=set("libc6 libc6-dev libstdc++6 libgcc-s1 zlib1g zlib1g-dev libc-dev-bin linux-libc-dev libcrypt-dev libcrypt1 gcc-12-base libstdc++-12-dev libgcc-12-dev debconf dpkg perl-base tar coreutils libselinux1 libpcre2-8-0 libzstd1 liblzma5 libbz2-1.0 libudev1 libsystemd0 libcap2 libgcrypt20 libgpg-error0 liblz4-1 libmount1 libblkid1 libuuid1 python3 python3-minimal libpython3.11-minimal libpython3.11-stdlib python3.11 python3.11-minimal mime-support media-types readline-common libreadline8 libncursesw6 libtinfo6 libsqlite3-0 libssl3 libexpat1 libffi8 libdb5.3 libnsl2 libtirpc3 libkrb5-3 libgssapi-krb5-2 libk5crypto3 libkrb5support0 libkeyutils1 libcom-err2 libtirpc-common ucf sensible-utils libopenblas0-openmp libopenblas0 libblas3 liblapack3 libgfortran5 libquadmath0 libgomp1 libtbb12 libtbbmalloc2 libtbbbind-2-5 libhwloc15 libxml2 libicu72 libltdl7 libudev-dev pkg-config pkgconf libpkgconf3 pkgconf-bin python3-distutils python3-lib2to3 libpython3-stdlib python3.11-venv".split())
seen=set(); stack=list(roots)
def deps(p):
    try: out=subprocess.run(["dpkg-query","-W","-f=${Depends},${Pre-Depends}",p],capture_output=True,text=True).stdout
    except: return []
    r=[]
    for alt in out.split(','):
        alt=alt.strip()
        if not alt: continue
        names=[re.sub(r'\s*\(.*\)','',a).strip().split(':')[0] for a in alt.split('|')]
        for n in names:
            if subprocess.run(["dpkg-query","-W","-f=${Status}",n],capture_output=True,text=True).stdout.endswith("installed"):
                r.append(n); break
    return r
while stack:
    p=stack.pop()
    if p in seen or p in skip: continue
    seen.add(p); stack.extend(deps(p))
EX=re.compile(r"^(libllvm15|libgl1-mesa-dri|libglapi-mesa|libglx-mesa0|libdrm.*|libz3-4|libicu-dev|icu-devtools|libibverbs.*|ibverbs-providers|libnl-.*|libhiredis.*|libpam.*|passwd|adduser|libsemanage.*|libaudit.*|libsensors.*|pango1.0-tools|libglib2.0-bin|libglib2.0-dev-bin|gir1.2-.*|libgirepository-1.0-1|libedit2|libelf1|libxcb-dri.*|libxcb-glx0|libxcb-present0|libxcb-randr0|libxcb-sync1|libxcb-xfixes0|libxshmfence1|libxxf86vm1|libpciaccess0|lsb-base|libgloo-dev|libgloo0|libharfbuzz-icu0|libcairo-script-interpreter2|libtbb-dev|libcap-ng0|liblzo2-2|libglvnd0|libglx0|libx11-xcb1|xorg-sgml-doctools|libpangoxft-1.0-0)$")
files=[]
for p in sorted(x for x in seen if not EX.match(x)):
    out=subprocess.run(["dpkg","-L",p],capture_output=True,text=True).stdout.split('\n')
    for f in out:
        if not f or os.path.isdir(f) and not os.path.islink(f): continue
        if f.startswith("/usr/share/doc") or f.startswith("/usr/share/man") or f.startswith("/usr/share/locale") or f.startswith("/usr/share/lintian") or f.startswith("/usr/bin") or f.startswith("/usr/share/gtk-doc") or f.startswith("/usr/share/info") or "/python3" in f or f.startswith("/usr/share/bash-completion"):
            continue
        if f.endswith(".a"): continue
        if os.path.exists(f) or os.path.islink(f): files.append(f)
print(len(seen), file=sys.stderr)
open("/tmp/devfiles.txt","w").write('\n'.join(files)+'\n')
