"""numba.typed for kjit: List and Dict for host code (CPython objects).

kjit cannot pass them to compiled code yet (the C API has no list or dict values): such a call is a
TypingError naming the argument."""


class List(list):
    @classmethod
    def empty_list(cls, item_type=None, allocated=0):
        return cls()


class Dict(dict):
    @classmethod
    def empty(cls, key_type=None, value_type=None, n_keys=0):
        return cls()
