import Headway
