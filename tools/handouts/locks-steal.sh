# The wrong attempt of docs/labs/10-locks.md: "when the buddy lists are
# empty too, steal pages from another CPU's list" (6.1810's kalloc lab
# steals): its list's lock taken while holding this CPU's, two locks of
# one class; CPUs stealing from each other at once deadlock (AB-BA), and
# the validator says so the first time one steals.
edit_function mm/page_alloc.c rmqueue_pcplist '
    /^        rmqueue_bulk\(pcp, pcp->batch\);$/ {
        print
        print "    for (int cpu = 0; cpu < NR_CPUS && list_empty(&pcp->list); cpu++) {"
        print "        struct per_cpu_pages *other = &pcp_pages[cpu];   /* the buddy lists are empty: steal */"
        print "        if (other == pcp)"
        print "            continue;"
        print "        spin_lock(&other->lock);"
        print "        while (other->count > 0 && pcp->count < pcp->batch) {"
        print "            list_move(other->list.next, &pcp->list);"
        print "            other->count--;"
        print "            pcp->count++;"
        print "        }"
        print "        spin_unlock(&other->lock);"
        print "    }"
        next }
    { print }'
