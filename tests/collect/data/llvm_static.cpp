static int loc(int x) { return x; }
int main() { return loc(0); }
